// One read of two fields (a run of loads on one line: the pass reads them
// as one record) whose fields two threads write, each in parallel to it:
// the record's bytes are checked field by field, and each field's
// non-determinism is a report of its own, with its own writer, as two
// reads would give. The struct is aligned to a cache line, so both fields
// lie in one of the checker's 64-byte variables. The ordinary race checker
// reports the races too.
//
// `before`: T1 reads only once both writes are done, so whichever check
// runs first finds both. `after`: T3 writes B only once T1's check
// reported A (T1's lock of a lock nobody else takes ends its epoch and
// runs it, ordering nothing): a byte of a read is reported once, not its
// whole record, so B is a report of its own (with a report bit per record
// it was lost). T2 finishes, and its own check runs, only after T1's.
// The orders are ones the detector cannot see.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t before 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=ndr=1 not %t after 2>&1 | FileCheck %s

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct Pair {
  int A, B;
} P __attribute__((aligned(64)));
static pthread_mutex_t Own = PTHREAD_MUTEX_INITIALIZER;
static int AWritten, BWritten, ReaderChecked, BLate;

static void *Reader(void *Arg) {
  invisible_wait(&AWritten);
  if (!BLate)
    invisible_wait(&BWritten);
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
  if (BLate)
    invisible_wait(&ReaderChecked);
  P.B = 2;
  invisible_signal(&BWritten);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[A:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}two_fields_of_one_read_written_by_two_threads_are_two_reports.c:[[@LINE-23]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[A]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 WriterOfA {{.*}}two_fields_of_one_read_written_by_two_threads_are_two_reports.c:[[@LINE-18]]
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[B:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}two_fields_of_one_read_written_by_two_threads_are_two_reports.c:[[@LINE-29]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[B]] by thread T3 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 WriterOfB {{.*}}two_fields_of_one_read_written_by_two_threads_are_two_reports.c:[[@LINE-15]]
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(int argc, char **argv) {
  BLate = argc > 1 && !strcmp(argv[1], "after");
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
