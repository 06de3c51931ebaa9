// Phase 1: both threads update X under M (Shared-Modified, C = {M1}).
// Phase 2, after a barrier, without a lock: T2 reads X first; in msm=long
// the empty lock set makes that read a suspicion (Exclusive-Read-Write).
//
// Then T1 reads X twice, unordered with T2's read. Two reads never race:
// msm=long once took T1's first read to Shared-Modified-2 and reported the
// second as a race with T2's read (the mining phase of
// benchmarks/parsec/freqmine.c). The reads' order is forced with
// synchronisation the detector cannot see; it hides no race, since nothing
// is written after the barrier.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s --check-prefix=READS
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s --check-prefix=READS
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s --check-prefix=READS
// READS-NOT: WARNING: HybridRace
// READS: T1 read 20 20, T2 read 20
//
// With -DTHEN_WRITE, T1 writes X instead, unordered with T2's read. Every
// machine reports the write against that read: msm=short from
// Exclusive-Read, msm=hb from the read it keeps, msm=long from the
// suspicion (which remembers that a read made it, so the report names a
// read).
//
// RUN: %hrace_cc -DTHEN_WRITE %s -o %t.write
// RUN: not %t.write 2>&1 | FileCheck %s --check-prefix=WRITE
// RUN: env HRACE_OPTIONS=msm=long not %t.write 2>&1 | FileCheck %s --check-prefix=WRITE
// RUN: env HRACE_OPTIONS=msm=hb not %t.write 2>&1 | FileCheck %s --check-prefix=WRITE

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t B;
static int T2Read;
static int T1Seen[2], T2Seen;

static void *Worker(void *Arg) {
  long Id = (long)Arg;
  for (int I = 0; I < 10; I++) {
    pthread_mutex_lock(&M);
    X++;
    pthread_mutex_unlock(&M);
  }
  pthread_barrier_wait(&B);
  if (Id == 2) {
    T2Seen = X;
    invisible_signal(&T2Read);
    return NULL;
  }
  invisible_wait(&T2Read);
#ifdef THEN_WRITE
  X = 0;
#else
  T1Seen[0] = X;
  // A call the compiler cannot see through: two loads, not one.
  invisible_pause(0);
  T1Seen[1] = X;
#endif
  return NULL;
}

int main(void) {
  pthread_t T1, T2;
  pthread_barrier_init(&B, NULL, 2);
  pthread_create(&T1, NULL, Worker, (void *)1);
  pthread_create(&T2, NULL, Worker, (void *)2);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("T1 read %d %d, T2 read %d\n", T1Seen[0], T1Seen[1], T2Seen);
  return 0;
}
// WRITE:      WARNING: HybridRace: data race
// WRITE-NEXT:   Write of size 4 at {{.*}} by thread T1 (locks held: none):
// WRITE-NEXT:     #0 Worker {{.*}}after_locked_phase_reads_share_and_a_write_races.c:55
// WRITE:        Previous read of size 4 at {{.*}} by thread T2 (locks held: none):
// WRITE-NEXT:     #0 Worker {{.*}}after_locked_phase_reads_share_and_a_write_races.c:49
// WRITE:      HybridRace: reported 1 warning
