// As in read_after_every_locked_write_does_not_race_with_a_locked_read.c:
// the Writer writes P under M, unlocks and starts the Reader, which reads
// P; the LockedReader reads P under M, ordered after nothing; then the
// Reader reads P again without a lock. msm=short excuses that read only
// where M's map of what its sections wrote shows it ordered after every
// write. Here a later write races with it, and each variant hides that
// write from a map that is asked the wrong question:
//
// -DSECOND_FIELD: a LateWriter, started by the Reader after its first
// read, writes P.B under M before the Reader copies all of P (one access
// over two granules). The map shows the read ordered after P.A's writes
// only: P.B's granule is asked about, not the access's first byte.
//
// RUN: %hrace_cc -DSECOND_FIELD %s -o %t.field
// RUN: not %t.field 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: env HRACE_OPTIONS=msm=hb not %t.field 2>&1 | FileCheck %s --check-prefix=FIELD
//
// -DATOMIC_STORE: the LockedReader then stores P.A atomically under M.
// Atomic stores do not reach the map, so a location an atomic access
// shared is not excused.
//
// RUN: %hrace_cc -DATOMIC_STORE %s -o %t.atomic
// RUN: not %t.atomic 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: env HRACE_OPTIONS=msm=hb not %t.atomic 2>&1 | FileCheck %s --check-prefix=ATOMIC
//
// -DLOCKED_READER_WRITES: the LockedReader writes P.B in its section, which
// leaves P.B's cell as it was (C and S unchanged): P.A's and P.B's cells
// hold one value. The Reader then reads P.A (excused) and P.B (which
// races with that write). The excused read leaves P.A's value unchanged
// after a look-up by address, so it is not memoised as a no-op for the
// Reader, whose memo test would pass P.B's read unchecked. (msm=hb, whose
// lock orders the write after the LockedReader's read, reports the write
// against the Reader's first read, the race it meets first.)
//
// RUN: %hrace_cc -DLOCKED_READER_WRITES %s -o %t.same
// RUN: not %t.same 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: env HRACE_OPTIONS=msm=hb not %t.same 2>&1 | FileCheck %s --check-prefix=SAME-HB
//
// The order of the accesses is forced with synchronisation the detector
// cannot see.

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

struct Pair {
  long A;
  long B;
};

struct Pair P;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int ReaderRead, LockedReaderDone, LateWritten;
static struct Pair FirstSeen, SecondSeen;
static long LockedSeen;
static pthread_t ReaderThread, LateWriterThread;

static void *LateWriter(void *Arg) {
  (void)Arg;
  invisible_wait(&LockedReaderDone);
  pthread_mutex_lock(&M);
  P.B = 2;
  pthread_mutex_unlock(&M);
  invisible_signal(&LateWritten);
  return NULL;
}

static void *Reader(void *Arg) {
  (void)Arg;
  FirstSeen = P;
  invisible_signal(&ReaderRead);
#ifdef SECOND_FIELD
  pthread_create(&LateWriterThread, NULL, LateWriter, NULL);
  invisible_wait(&LateWritten);
#else
  invisible_wait(&LockedReaderDone);
#endif
#ifdef LOCKED_READER_WRITES
  SecondSeen.A = P.A;
  SecondSeen.B = P.B;
#else
  SecondSeen = P;
#endif
  return NULL;
}

static void *Writer(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&M);
  P.A = 1;
  P.B = 1;
  pthread_mutex_unlock(&M);
  pthread_create(&ReaderThread, NULL, Reader, NULL);
  return NULL;
}

static void *LockedReader(void *Arg) {
  (void)Arg;
  invisible_wait(&ReaderRead);
  pthread_mutex_lock(&M);
  LockedSeen = P.A + P.B;
#ifdef LOCKED_READER_WRITES
  P.B = 4;
#endif
  pthread_mutex_unlock(&M);
#ifdef ATOMIC_STORE
  pthread_mutex_lock(&M);
  __atomic_store_n(&P.A, 3, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&M);
#endif
  invisible_signal(&LockedReaderDone);
  return NULL;
}

int main(void) {
  // T1 the locked reader, T2 the writer, T3 the reader, T4 the late writer.
  pthread_t T1, T2;
  pthread_create(&T1, NULL, LockedReader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  pthread_join(ReaderThread, NULL);
#ifdef SECOND_FIELD
  pthread_join(LateWriterThread, NULL);
#endif
  printf("read %ld %ld, %ld, %ld %ld\n", FirstSeen.A, FirstSeen.B, LockedSeen,
         SecondSeen.A, SecondSeen.B);
  return 0;
}
// FIELD:      WARNING: HybridRace: data race
// FIELD-NEXT:   Read of size {{8|16}} at {{.*}} by thread T3 (locks held: none):
// FIELD-NEXT:     #0 {{.*}}
// FIELD:      HybridRace: reported 1 warning

// ATOMIC:      WARNING: HybridRace: data race
// ATOMIC:      by thread T3 (locks held: none):
// ATOMIC:      HybridRace: reported 1 warning

// SAME:      WARNING: HybridRace: data race
// SAME:      by thread T3 (locks held: none):
// SAME:        #0 Reader {{.*}}read_after_locked_writes_is_excused_only_where_the_map_shows_it.c:80
// SAME:      HybridRace: reported 1 warning

// SAME-HB:      WARNING: HybridRace: data race
// SAME-HB-NEXT:   Write of size 8 at {{.*}} by thread T1 (locks held: {M1}):
// SAME-HB:        Previous read of size 16 at {{.*}} by thread T3 (locks held: none):
// SAME-HB:      HybridRace: reported 1 warning
