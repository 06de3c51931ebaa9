// One read of two fields (a run of loads on one line: the pass reads them
// as one record) is reported for the first field that another thread
// writes in parallel to it; a third thread's parallel write of the other
// field, which comes only after that report, is a report of its own: a
// byte of a read is reported once, not its whole record. T1's check runs
// when it takes a lock nobody else takes (an epoch's end that orders
// nothing); T3 writes, and T2 finishes (its own check could report the
// first field too), only once that check ran: orders the detector cannot
// see. The ordinary race checker reports the races too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

struct Pair {
  int A, B;
} P __attribute__((aligned(64)));
static pthread_mutex_t Own = PTHREAD_MUTEX_INITIALIZER;
static int AWritten, ReaderChecked;

static void *Reader(void *Arg) {
  invisible_wait(&AWritten);
  long Sum = P.A + P.B;
  pthread_mutex_lock(&Own);
  pthread_mutex_unlock(&Own);
  invisible_signal(&ReaderChecked);
  return (void *)Sum;
}

static void *WriterOfA(void *Arg) {
  P.A = 1;
  invisible_signal(&AWritten);
  invisible_wait(&ReaderChecked);
  return Arg;
}

static void *WriterOfB(void *Arg) {
  invisible_wait(&ReaderChecked);
  P.B = 2;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[A:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}a_field_written_after_another_field_was_reported_is_reported_too.c:[[@LINE-21]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[A]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 WriterOfA {{.*}}a_field_written_after_another_field_was_reported_is_reported_too.c:[[@LINE-16]]
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[B:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}a_field_written_after_another_field_was_reported_is_reported_too.c:[[@LINE-27]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[B]] by thread T3 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 WriterOfB {{.*}}a_field_written_after_another_field_was_reported_is_reported_too.c:[[@LINE-14]]
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2, T3;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, WriterOfA, NULL);
  pthread_create(&T3, NULL, WriterOfB, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  pthread_join(T3, NULL);
  printf("done\n");
  return 0;
}
