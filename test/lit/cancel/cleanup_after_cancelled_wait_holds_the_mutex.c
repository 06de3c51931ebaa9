// A thread cancelled in pthread_cond_wait runs its cleanup handlers with the
// mutex taken again, as glibc does. A write in the handler that races with
// an unlocked write elsewhere is reported with the mutex in the writer's
// lock set; the handler's unlock is the program's, and the mutex is free
// again afterwards (main takes it).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 CleanUp {{.*}}cleanup_after_cancelled_wait_holds_the_mutex.c
// CHECK:        Previous write of size 4 at [[ADDR]] by thread T2 (locks held: none):
// CHECK-NEXT:     #0 WriteUnlocked {{.*}}cleanup_after_cancelled_wait_holds_the_mutex.c
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      main took the mutex after the cancelled thread
// CHECK-NOT:  WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Never = PTHREAD_COND_INITIALIZER;
static int Waiting, UnlockedWriteDone;
int Shared;

static void CleanUp(void *Arg) {
  (void)Arg;
  // Runs holding M, which the cancelled wait took again.
  Shared = 1;
  pthread_mutex_unlock(&M);
}

static void *WaitUntilCancelled(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&M);
  pthread_cleanup_push(CleanUp, 0);
  invisible_signal(&Waiting);
  for (;;)
    pthread_cond_wait(&Never, &M);
  pthread_cleanup_pop(0);
  return 0;
}

static void *WriteUnlocked(void *Arg) {
  (void)Arg;
  Shared = 2;
  invisible_signal(&UnlockedWriteDone);
  return 0;
}

int main(void) {
  pthread_t Waiter, Writer;
  pthread_create(&Waiter, 0, WaitUntilCancelled, 0);
  invisible_wait(&Waiting);
  pthread_create(&Writer, 0, WriteUnlocked, 0);
  // Ordering only: the unlocked write comes first, the handler's second.
  invisible_wait(&UnlockedWriteDone);
  pthread_cancel(Waiter);
  pthread_join(Waiter, 0);
  pthread_join(Writer, 0);
  pthread_mutex_lock(&M);
  printf("main took the mutex after the cancelled thread\n");
  pthread_mutex_unlock(&M);
  return 0;
}
