// The Writer writes X under M and starts the Reader, then writes X under N
// and starts the Helper, which reads X: the cell keeps that read and the
// N write, and only a bit saying the write held some lock. The
// LockedReader reads X holding M and N, ordered after nothing: the cell
// goes to Shared-Modified with C = {M, N}, its own locks. Then the Reader,
// ordered after the M write but not the N write, reads X without a lock:
// it races with the N write. M's map shows it ordered after every write M
// saw; N's map does not. msm=short excuses such a read only if every lock
// of C shows it (docs/design.md, msm=short), and reports this one.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,HB
//
// The order of the accesses is forced with synchronisation the detector
// cannot see.

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

long X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t N = PTHREAD_MUTEX_INITIALIZER;
static int NWritten, HelperRead, LockedReaderRead;
static long ReaderSeen, HelperSeen, LockedSeen;
static pthread_t ReaderThread, HelperThread;

static void *Reader(void *Arg) {
  (void)Arg;
  invisible_wait(&LockedReaderRead);
  ReaderSeen = X;
  return NULL;
}

static void *Helper(void *Arg) {
  (void)Arg;
  HelperSeen = X;
  invisible_signal(&HelperRead);
  return NULL;
}

static void *Writer(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&M);
  X = 1;
  pthread_mutex_unlock(&M);
  pthread_create(&ReaderThread, NULL, Reader, NULL);
  pthread_mutex_lock(&N);
  X = 42;
  pthread_mutex_unlock(&N);
  invisible_signal(&NWritten);
  pthread_create(&HelperThread, NULL, Helper, NULL);
  return NULL;
}

static void *LockedReader(void *Arg) {
  (void)Arg;
  invisible_wait(&HelperRead);
  pthread_mutex_lock(&M);
  pthread_mutex_lock(&N);
  LockedSeen = X;
  pthread_mutex_unlock(&N);
  pthread_mutex_unlock(&M);
  invisible_signal(&LockedReaderRead);
  return NULL;
}

int main(void) {
  // T1 the locked reader, T2 the writer, T3 the reader, T4 the helper.
  pthread_t T1, T2;
  pthread_create(&T1, NULL, LockedReader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  pthread_join(ReaderThread, NULL);
  pthread_join(HelperThread, NULL);
  printf("read %ld %ld %ld\n", ReaderSeen, HelperSeen, LockedSeen);
  return 0;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 8 at {{.*}} by thread T3 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}read_after_locked_writes_needs_every_lock_of_the_candidate_set.c:32
// HB:           Previous write of size 8 at {{.*}} by thread T2 (locks held: {M2}):
// HB-NEXT:        #0 Writer {{.*}}read_after_locked_writes_needs_every_lock_of_the_candidate_set.c:50
// CHECK:      HybridRace: reported 1 warning
