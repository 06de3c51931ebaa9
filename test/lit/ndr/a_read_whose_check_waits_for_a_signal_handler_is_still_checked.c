// An epoch's checks wait while its thread runs a signal handler, and the
// handler's own epoch must not recycle an epoch variable that waits for its
// check. Main writes V.B, then reads V.A after T2 wrote it with no order
// between them (invisible_wait only fixes the interleaving), and ends that
// epoch with an atomic release; a handler then reads V.B in a new epoch
// while the read of V.A still waits for its check. Main keeps
// ndr_history = 2 epoch variables of V's line: the handler's is a third,
// and the read of V.A, which wrote nothing, was the one to go. It was
// recycled as the handler's, so the pending check ran on the handler's
// read of V.B and the read of V.A went unreported. T2 ran its own check
// before main read, so only main's check can find the read.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1:ndr_history=2 not %t 2>&1 | FileCheck %s

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>

struct Line {
  int A;
  int B;
} __attribute__((aligned(64)));

struct Line V;
static int Wrote;
// Not static: the optimiser removes stores to a static nobody reads.
atomic_int EpochEnd;
static volatile int Sink;
static pthread_mutex_t Private = PTHREAD_MUTEX_INITIALIZER;

static void OnSignal(int Signal) { Sink = V.B + Signal; }

static void *Writer(void *Arg) {
  V.A = 1;
  // A lock ends T2's epoch and runs its checks at once: main has not read
  // V.A yet, so they find nothing.
  pthread_mutex_lock(&Private);
  pthread_mutex_unlock(&Private);
  invisible_signal(&Wrote);
  return Arg;
}

int main(void) {
  signal(SIGUSR1, OnSignal);
  V.B = 1;
  pthread_t T2;
  pthread_create(&T2, NULL, Writer, NULL);
  invisible_wait(&Wrote);
  int A = V.A;
  atomic_store_explicit(&EpochEnd, 1, memory_order_release);
  raise(SIGUSR1);
  pthread_join(T2, NULL);
  printf("A is %d\n", A);
  return 0;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}a_read_whose_check_waits_for_a_signal_handler_is_still_checked.c:[[@LINE-9]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}a_read_whose_check_waits_for_a_signal_handler_is_still_checked.c:[[@LINE-27]]
