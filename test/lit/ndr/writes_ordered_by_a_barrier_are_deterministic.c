// Table II of seeds/002, W&W Timed (no race): both threads write X and read
// it back, but a barrier orders all of T1's accesses before T2's. T1's read
// depends on its own write only (T2's comes after the read: relevance);
// T2's read depends on its own write only (T1's happens before it:
// directness). Deterministic: nothing reported.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t 2>&1 | FileCheck %s --check-prefix=SILENT
// SILENT-NOT: non-deterministic read
// SILENT:     read back 1 2
// SILENT:     done
// SILENT-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

// Volatile, so that -O1 reads X back instead of reusing the value stored.
volatile int X;
static pthread_barrier_t Barrier;

static void *First(void *Arg) {
  X = 1;
  int Seen = X;
  pthread_barrier_wait(&Barrier);
  return (void *)(long)Seen;
}

static void *Second(void *Arg) {
  pthread_barrier_wait(&Barrier);
  X = 2;
  int Seen = X;
  return (void *)(long)Seen;
}

int main(void) {
  pthread_barrier_init(&Barrier, NULL, 2);
  pthread_t T1, T2;
  pthread_create(&T1, NULL, First, NULL);
  pthread_create(&T2, NULL, Second, NULL);
  void *Seen1, *Seen2;
  pthread_join(T1, &Seen1);
  pthread_join(T2, &Seen2);
  printf("read back %ld %ld\n", (long)Seen1, (long)Seen2);
  printf("done\n");
  pthread_barrier_destroy(&Barrier);
  return 0;
}
