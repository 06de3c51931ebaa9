// Table II of seeds/002, W&W Unread (no race for this checker): two threads
// write X with no lock, and nobody ever reads it. The ordinary race checker
// reports the write-write race; but with no read there is no
// non-deterministic read, however the writes are ordered.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// CHECK-NOT: non-deterministic read
// CHECK:     WARNING: HybridRace: data race
// CHECK-NOT: non-deterministic read
// CHECK:     done
// CHECK-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;

static void *Worker(void *Arg) {
  X = (int)(long)Arg;
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Worker, (void *)1);
  pthread_create(&T2, NULL, Worker, (void *)2);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
