// Release sequences (C++20 [intro.races]): T1 writes Data and release-stores
// Flag = 1. T2 (which never synchronises with T1) then changes Flag, and
// main acquire-loads the value T2 left:
//   - a relaxed store by T2 ends T1's release sequence: main has not
//     synchronised with T1, and its read of Data races with T1's write;
//   - a relaxed read-modify-write by T2 continues it: main reads T1's
//     release through it, and its read of Data is ordered.
// The loads that make main see T2's value, and T2 see T1's, are invisible
// to the detector.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t store 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: env HRACE_OPTIONS=msm=short not %t store 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: env HRACE_OPTIONS=msm=hb %t rmw 2>&1 | FileCheck %s --check-prefix=RMW
// RUN: env HRACE_OPTIONS=msm=short %t rmw 2>&1 | FileCheck %s --check-prefix=RMW
// STORE:   WARNING: HybridRace: data race
// STORE:     #0 main {{.*}}release_sequence_ends_at_another_threads_store.c:[[@LINE+43]]
// STORE:   Previous write of size 4 at {{.*}} by thread T1
// STORE:     #0 Releaser {{.*}}release_sequence_ends_at_another_threads_store.c:[[@LINE+18]]
// RMW-NOT: HybridRace
// RMW:     Flag = 2, Data = 42
// RMW-NOT: HybridRace

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

int Data;
atomic_int Flag;
int Released, Changed;
int UseRmw;

static void *Releaser(void *Arg) {
  Data = 42; // @write
  atomic_store_explicit(&Flag, 1, memory_order_release);
  invisible_signal(&Released);
  return Arg;
}

static void *Changer(void *Arg) {
  invisible_wait(&Released);
  if (UseRmw)
    atomic_fetch_add_explicit(&Flag, 1, memory_order_relaxed);
  else
    atomic_store_explicit(&Flag, 2, memory_order_relaxed);
  invisible_signal(&Changed);
  return Arg;
}

int main(int Argc, char **Argv) {
  UseRmw = Argc > 1 && !strcmp(Argv[1], "rmw");
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Releaser, NULL);
  pthread_create(&T2, NULL, Changer, NULL);
  invisible_wait(&Changed);
  int Seen = atomic_load_explicit(&Flag, memory_order_acquire);
  printf("Flag = %d, Data = %d\n", Seen, Data); // @read
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  return 0;
}
