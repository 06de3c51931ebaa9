// A thread that makes an epoch variable first drops its own older ones of
// the line whose reads happen before every epoch still to run, against the
// floor of its own slot. Main reads the 6000 lines of A in one epoch,
// creates and joins U (main learns something, and the floor is gathered
// anew once U has slept past the gather interval: the sleep only orders),
// then reads A again in a new epoch.
//
// drop: main is the only thread left: its first reads are dead and each
// line's new epoch variable takes the place of the old one; the slabs stay
// at one MiB, below ndr_sweep_mb=2, and no sweep comes.
// keep: T, created before main read A and waiting (invisible_wait), knows
// nothing of that epoch: main keeps both epoch variables of each line
// (ndr_history=2), 12000 in all, and its slabs reach 2 MiB, which brings a
// sweep.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1:ndr_sweep_mb=2:verbosity=2 %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DROP
// RUN: env HRACE_OPTIONS=ndr=1:ndr_sweep_mb=2:verbosity=2 %t keep 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KEEP
//
// DROP-NOT: a sweep freed
// DROP:     sum 0
//
// KEEP: a sweep freed {{[0-9]+}} epoch variables
// KEEP: sum 0

#include "../Inputs/hrace_test_lines.h"
#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

char A[6000 * 64];
static int Go;

static void *Sleeper(void *Arg) {
  struct timespec Ts = {0, 100 * 1000 * 1000};
  nanosleep(&Ts, 0);
  return Arg;
}

static void *Waiter(void *Arg) {
  invisible_wait(&Go);
  return Arg;
}

int main(int Argc, char **Argv) {
  pthread_t T, U;
  if (Argc > 1)
    pthread_create(&T, NULL, Waiter, NULL);
  int Sum = read_lines(A, 6000);
  pthread_create(&U, NULL, Sleeper, NULL);
  pthread_join(U, NULL);
  Sum += read_lines(A, 6000);
  if (Argc > 1) {
    invisible_signal(&Go);
    pthread_join(T, NULL);
  }
  printf("sum %d\n", Sum);
  return 0;
}
