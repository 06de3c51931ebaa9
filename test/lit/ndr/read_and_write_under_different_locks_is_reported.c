// Table II of seeds/002, R&W False lock (race): T1 reads X holding ReadLock,
// T2 writes it holding WriteLock. No lock protects both, so the ordinary
// race checker reports the race as well; for this checker T2's write is a
// parallel write dependency of the read, its only one. Invisible
// synchronisation makes T1 take its lock first, so that ReadLock is M1 and
// WriteLock M2 (locks are named in order of first use).
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t ReadLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t WriteLock = PTHREAD_MUTEX_INITIALIZER;
static int ReaderLocked;

static void *Reader(void *Arg) {
  pthread_mutex_lock(&ReadLock);
  invisible_signal(&ReaderLocked);
  int Seen = X;
  pthread_mutex_unlock(&ReadLock);
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  invisible_wait(&ReaderLocked);
  pthread_mutex_lock(&WriteLock);
  X = 1;
  pthread_mutex_unlock(&WriteLock);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 Reader {{.*}}read_and_write_under_different_locks_is_reported.c:[[@LINE-14]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M2}), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}read_and_write_under_different_locks_is_reported.c:[[@LINE-9]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}read_and_write_under_different_locks_is_reported.c:[[@LINE-19]] in Reader
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
