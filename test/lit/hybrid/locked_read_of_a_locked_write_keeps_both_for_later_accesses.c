// T2 writes X under M; T1 then reads X under M, ordered after nothing (a
// lock orders nothing in the hybrid machines; it protects). What comes
// later is checked against both accesses:
//
// T3, started by main and ordered after neither, reads X without a lock
// after T1's read: its read races with T2's write, and is reported.
// msm=hb names the write; msm=short names the access its cell remembers,
// T1's read (the lock's map of writes shows T3 ordered after none of them).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s --check-prefix=READ
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s --check-prefixes=READ,READ-HB
//
// With -DTHEN_WRITE, T3 is created by T2 after its write, reads X (ordered
// after the write), and writes X after T1's read: the write is ordered
// after T2's write but not after T1's read, and is reported against that
// read. (read_after_every_locked_write_does_not_race_with_a_locked_read.c
// has T3 only read X again: no race.)
//
// RUN: %hrace_cc -DTHEN_WRITE %s -o %t.write
// RUN: not %t.write 2>&1 | FileCheck %s --check-prefix=WRITE
// RUN: env HRACE_OPTIONS=msm=hb not %t.write 2>&1 | FileCheck %s --check-prefix=WRITE
//
// The order of the accesses is forced with synchronisation the detector
// cannot see.

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

long X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int Written, ReaderRead, LockedReaderRead;
static long LockedSeen, Seen;
static pthread_t T3;

static void *Reader(void *Arg) {
  (void)Arg;
#ifdef THEN_WRITE
  Seen = X;
  invisible_signal(&ReaderRead);
  invisible_wait(&LockedReaderRead);
  X = 7;
#else
  invisible_wait(&LockedReaderRead);
  Seen = X;
#endif
  return NULL;
}

static void *Writer(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&M);
  X = 42;
  pthread_mutex_unlock(&M);
#ifdef THEN_WRITE
  pthread_create(&T3, NULL, Reader, NULL);
#else
  invisible_signal(&Written);
#endif
  return NULL;
}

static void *LockedReader(void *Arg) {
  (void)Arg;
#ifdef THEN_WRITE
  invisible_wait(&ReaderRead);
#else
  invisible_wait(&Written);
#endif
  pthread_mutex_lock(&M);
  LockedSeen = X;
  pthread_mutex_unlock(&M);
  invisible_signal(&LockedReaderRead);
  return NULL;
}

int main(void) {
  pthread_t T1, T2;
  // Created in this order, so that the reports' names are fixed: T1 the
  // locked reader, T2 the writer, T3 the reader.
  pthread_create(&T1, NULL, LockedReader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
#ifndef THEN_WRITE
  pthread_create(&T3, NULL, Reader, NULL);
#endif
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  pthread_join(T3, NULL);
  printf("read %ld %ld\n", LockedSeen, Seen);
  return 0;
}
// READ:      WARNING: HybridRace: data race
// READ-NEXT:   Read of size 8 at {{.*}} by thread T3 (locks held: none):
// READ-NEXT:     #0 Reader {{.*}}locked_read_of_a_locked_write_keeps_both_for_later_accesses.c:46
// READ-HB:     Previous write of size 8 at {{.*}} by thread T2 (locks held: {M1}):
// READ-HB-NEXT:  #0 Writer {{.*}}locked_read_of_a_locked_write_keeps_both_for_later_accesses.c:54
// READ:      HybridRace: reported 1 warning

// WRITE:      WARNING: HybridRace: data race
// WRITE-NEXT:   Write of size 8 at {{.*}} by thread T3 (locks held: none):
// WRITE-NEXT:     #0 Reader {{.*}}locked_read_of_a_locked_write_keeps_both_for_later_accesses.c:43
// WRITE:        Previous read of size 8 at {{.*}} by thread T1 (locks held: {M1}):
// WRITE-NEXT:     #0 LockedReader {{.*}}locked_read_of_a_locked_write_keeps_both_for_later_accesses.c:72
// WRITE:      HybridRace: reported 1 warning
