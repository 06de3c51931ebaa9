// The Writer writes X under M, unlocks, and then starts the Reader: the
// Reader is ordered after the write. The LockedReader reads X under M,
// ordered after nothing (a lock orders nothing in the hybrid machines).
// Then the Reader reads X again without a lock. Its read is ordered after
// the only write and meets two reads: no race. msm=short once reported it
// against the locked read, the access its Shared-Modified cell remembered
// (dedup: a table entry's hash written and read under its bucket's lock,
// then read unlocked by the stage the entry was handed to). Now the lock's
// map of what its sections wrote shows the read ordered after every write
// of X (docs/design.md, msm=short).
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s --check-prefix=QUIET
//
// With -DLOCKED_READ_FIRST the locked read comes before the Reader's first
// read (msm=short then goes to Shared-Modified from Exclusive-Write, not
// from Exclusive-Read-after-Write): no race either.
//
// RUN: %hrace_cc -DLOCKED_READ_FIRST %s -o %t.first
// RUN: %t.first 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t.first 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t.first 2>&1 | FileCheck %s --check-prefix=QUIET
//
// QUIET-NOT: WARNING: HybridRace
// QUIET:     read 42 42 42 0
//
// With -DLATE_WRITE the Reader starts the LateWriter after its first read,
// which writes X under M after the locked read, before the Reader's second
// read: that read races with the late write, which the lock's map holds and
// the Reader's clock does not know. With -DLATE_WRITE_HOLDING_M the
// LateWriter still holds M when the Reader reads: its write is not in the
// map yet, and a lock that another thread holds shows nothing.
//
// RUN: %hrace_cc -DLATE_WRITE %s -o %t.late
// RUN: not %t.late 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: env HRACE_OPTIONS=msm=hb not %t.late 2>&1 | FileCheck %s --check-prefixes=LATE,LATE-HB
// RUN: %hrace_cc -DLATE_WRITE -DLATE_WRITE_HOLDING_M %s -o %t.holding
// RUN: not %t.holding 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: env HRACE_OPTIONS=msm=hb not %t.holding 2>&1 | FileCheck %s --check-prefixes=LATE,LATE-HB
//
// With -DLATE_WRITE_THEN_MANY the LateWriter's section writes two other
// words by turns, 64 times, after X: the thread's ring of writes under
// locks (64) drops the write of X, and M's map, which never gets it (and
// keeps the writer's X, forgetting nothing), says it missed a write and
// excuses nothing from then on.
//
// RUN: %hrace_cc -DLATE_WRITE -DLATE_WRITE_THEN_MANY %s -o %t.many
// RUN: not %t.many 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: env HRACE_OPTIONS=msm=hb not %t.many 2>&1 | FileCheck %s --check-prefixes=LATE,LATE-HB
//
// With -DSTRANGER a thread started by main, ordered after nothing, reads X
// without a lock after the Reader's second read: it races with the write.
// The Reader's excused read leaves the cell as it was, so the stranger's
// read is asked about too, and the map shows it ordered after no write.
//
// RUN: %hrace_cc -DSTRANGER %s -o %t.stranger
// RUN: not %t.stranger 2>&1 | FileCheck %s --check-prefix=STRANGER
// RUN: env HRACE_OPTIONS=msm=hb not %t.stranger 2>&1 | FileCheck %s --check-prefixes=STRANGER,STRANGER-HB
//
// The order of the accesses is forced with synchronisation the detector
// cannot see; in the quiet variants it hides no race, since every read
// comes after the one write.

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

long X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int Written, ReaderRead, LockedReaderRead, LateWritten, ReadAgain;
static long FirstSeen, LockedSeen, SecondSeen, StrangerSeen;
static pthread_t ReaderThread, LateWriterThread;
#ifdef LATE_WRITE
static void *LateWriter(void *Arg);
#endif

static void *Reader(void *Arg) {
  (void)Arg;
#ifndef LOCKED_READ_FIRST
  FirstSeen = X;
  invisible_signal(&ReaderRead);
#endif
#ifdef LATE_WRITE
  pthread_create(&LateWriterThread, NULL, LateWriter, NULL);
  invisible_wait(&LateWritten);
#else
  invisible_wait(&LockedReaderRead);
#endif
  SecondSeen = X;
#ifdef LOCKED_READ_FIRST
  FirstSeen = SecondSeen;
#endif
  invisible_signal(&ReadAgain);
  return NULL;
}

static void *Writer(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&M);
  X = 42;
  pthread_mutex_unlock(&M);
  invisible_signal(&Written);
  pthread_create(&ReaderThread, NULL, Reader, NULL);
  return NULL;
}

static void *LockedReader(void *Arg) {
  (void)Arg;
#ifdef LOCKED_READ_FIRST
  invisible_wait(&Written);
#else
  invisible_wait(&ReaderRead);
#endif
  pthread_mutex_lock(&M);
  LockedSeen = X;
  pthread_mutex_unlock(&M);
  invisible_signal(&LockedReaderRead);
  return NULL;
}

#ifdef LATE_WRITE
static long Other[2];

// Out of line, so that each store is made.
static __attribute__((noinline)) void Store(long *P, long V) { *P = V; }

static void *LateWriter(void *Arg) {
  (void)Arg;
  invisible_wait(&LockedReaderRead);
  pthread_mutex_lock(&M);
  X = 42;
#ifdef LATE_WRITE_THEN_MANY
  for (int I = 0; I < 64; I++)
    Store(&Other[I % 2], I);
#endif
#ifdef LATE_WRITE_HOLDING_M
  invisible_signal(&LateWritten);
  invisible_wait(&ReadAgain);
  pthread_mutex_unlock(&M);
#else
  pthread_mutex_unlock(&M);
  invisible_signal(&LateWritten);
#endif
  return NULL;
}
#endif

#ifdef STRANGER
static void *Stranger(void *Arg) {
  (void)Arg;
  invisible_wait(&ReadAgain);
  StrangerSeen = X;
  return NULL;
}
#endif

int main(void) {
  // Created in this order, so that the reports' names are fixed: T1 the
  // locked reader, T2 the writer, T3 the reader, T4 the late writer (with
  // -DSTRANGER: T2 the stranger, T3 the writer, T4 the reader).
  pthread_t T1, T2;
  pthread_create(&T1, NULL, LockedReader, NULL);
#ifdef STRANGER
  pthread_t TS;
  pthread_create(&TS, NULL, Stranger, NULL);
#endif
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  pthread_join(ReaderThread, NULL);
#ifdef LATE_WRITE
  pthread_join(LateWriterThread, NULL);
#endif
#ifdef STRANGER
  pthread_join(TS, NULL);
#endif
  printf("read %ld %ld %ld %ld\n", FirstSeen, LockedSeen, SecondSeen,
         StrangerSeen);
  return 0;
}
// LATE:      WARNING: HybridRace: data race
// LATE-NEXT:   Read of size 8 at {{.*}} by thread T3 (locks held: none):
// LATE-NEXT:     #0 Reader {{.*}}read_after_every_locked_write_does_not_race_with_a_locked_read.c:91
// LATE-HB:     Previous write of size 8 at {{.*}} by thread T4 (locks held: {M1}):
// LATE-HB-NEXT:  #0 LateWriter {{.*}}read_after_every_locked_write_does_not_race_with_a_locked_read.c:133
// LATE:      HybridRace: reported 1 warning

// STRANGER:      WARNING: HybridRace: data race
// STRANGER-NEXT:   Read of size 8 at {{.*}} by thread T2 (locks held: none):
// STRANGER-NEXT:     #0 Stranger {{.*}}read_after_every_locked_write_does_not_race_with_a_locked_read.c:154
// STRANGER-HB:     Previous write of size 8 at {{.*}} by thread T3 (locks held: {M1}):
// STRANGER:      HybridRace: reported 1 warning
