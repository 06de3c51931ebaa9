// A read whose epoch happens before every epoch that a thread will still
// run can meet no write to come, and a sweep frees its epoch variable; a
// read that a live thread does not know stays, and is reported when that
// thread's write comes after the sweep. Main reads 4096 lines of A in one
// epoch, ends it with a lock, then reads the 16384 lines of B: the epoch
// variables' slabs pass 1 MiB (ndr_sweep_mb=1) and main sweeps.
//
// alone: main is the only thread, so the sweep frees the 4096 reads of A.
// thread: T1, created before main read A, knows nothing of that epoch; the
// sweep keeps the reads, and T1's write of A[0] afterwards (invisible_wait
// only orders it) is parallel to main's read of it.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1:ndr_sweep_mb=1:verbosity=2 %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALONE
// RUN: env HRACE_OPTIONS=ndr=1:ndr_sweep_mb=1:verbosity=2 not %t thread 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREAD
// ndr_sweep_mb=0: no sweep ever.
// RUN: env HRACE_OPTIONS=ndr=1:ndr_sweep_mb=0:verbosity=2 %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEVER
//
// NEVER-NOT: a sweep
// NEVER:     sum 0
//
// ALONE:     a sweep freed 4{{[0-9][0-9][0-9]}} epoch variables
// ALONE-NOT: WARNING: HybridRace
//
// THREAD-NOT: a sweep freed {{[1-9][0-9][0-9][0-9]+}} epoch variables
// THREAD:     WARNING: HybridRace: non-deterministic read
// THREAD-NEXT:  Read of size 1 at {{0x[0-9a-f]+}} by thread T0 (locks held: none):
// THREAD-NEXT:    #0 read_lines {{.*}}hrace_test_lines.h:19
// THREAD-NEXT:    #1 main {{.*}}a_sweep_frees_the_reads_every_live_thread_knows.c:[[@LINE+24]]
// THREAD:       Write of size 1 at {{0x[0-9a-f]+}} by thread T1 (locks held: none), parallel to the read:
// THREAD-NEXT:    #0 Writer {{.*}}a_sweep_frees_the_reads_every_live_thread_knows.c:[[@LINE+13]]

#include "../Inputs/hrace_test_lines.h"
#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>

char A[4096 * 64], B[16384 * 64];
static int Go, Done;

static void *Writer(void *Arg) {
  invisible_wait(&Go);
  A[0] = 1;
  invisible_signal(&Done);
  return Arg;
}

int main(int Argc, char **Argv) {
  pthread_t T1;
  if (Argc > 1)
    pthread_create(&T1, NULL, Writer, NULL);
  int Sum = read_lines(A, 4096);
  pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  Sum += read_lines(B, 16384);
  if (Argc > 1) {
    invisible_signal(&Go);
    invisible_wait(&Done);
    pthread_join(T1, NULL);
  }
  printf("sum %d\n", Sum);
  return 0;
}
