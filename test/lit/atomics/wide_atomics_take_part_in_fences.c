// 16-byte atomics stay in the program (the runtime performs 1 to 8 bytes)
// and still take part in fences: a release fence before a relaxed 16-byte
// store and an acquire fence after a relaxed 16-byte load that read it
// order the plain accesses around them. Silent in every machine.
//
// UNSUPPORTED: aarch64
// RUN: %hrace_cc -mcx16 %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:     Data = 42
// CHECK-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

int Data;
__int128 Flag;
int Stored;

static void *Producer(void *Arg) {
  Data = 42;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  __atomic_store_n(&Flag, 1, __ATOMIC_RELAXED);
  invisible_signal(&Stored);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Producer, NULL);
  invisible_wait(&Stored);
  if (__atomic_load_n(&Flag, __ATOMIC_RELAXED) == 1) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    printf("Data = %d\n", Data);
  }
  pthread_join(T, NULL);
  return 0;
}
