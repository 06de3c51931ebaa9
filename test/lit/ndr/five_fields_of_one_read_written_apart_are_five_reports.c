// One read of five fields (a run of loads: one record) that another thread
// wrote field by field, each in an epoch of its own, in parallel to it: five
// sets of the record's bytes, each non-deterministic with a writer of its
// own. A check fills a batch of four reports; the fifth comes in the next
// batch (the bytes reported are marked, so the next call goes on from
// them). The writer takes a lock nobody else takes between its writes,
// which ends its epochs and orders nothing; the reader reads only once it
// wrote them all (an order the detector cannot see). The ordinary race
// checker reports the races too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s

#include "../Inputs/hrace_test_sync.h"
#include "../Inputs/hrace_test_two_threads.h"

#include <stdio.h>

struct Five {
  int A, B, C, D, E;
} P __attribute__((aligned(64)));
static pthread_mutex_t Own = PTHREAD_MUTEX_INITIALIZER;
static int Written;

static void end_epoch(void) {
  pthread_mutex_lock(&Own);
  pthread_mutex_unlock(&Own);
}

static void *Reader(void *Arg) {
  invisible_wait(&Written);
  long Sum = P.A + P.B + P.C + P.D + P.E;
  return (void *)Sum;
}

static void *Writer(void *Arg) {
  P.A = 1;
  end_epoch();
  P.B = 2;
  end_epoch();
  P.C = 3;
  end_epoch();
  P.D = 4;
  end_epoch();
  P.E = 5;
  invisible_signal(&Written);
  return Arg;
}
// CHECK-COUNT-5: WARNING: HybridRace: non-deterministic read
// CHECK-NOT:     WARNING: HybridRace: non-deterministic read
// CHECK:         done

int main(void) {
  run_two_threads(Reader, Writer);
  printf("done\n");
  return 0;
}
