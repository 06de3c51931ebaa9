// seeds/000 figure 4: two signal/wait pairs share one condition variable.
// S1 writes X, sets FLAG1 and signals; S2 writes Y, sets FLAG2 and signals;
// W1 waits for FLAG1 and uses X, W2 waits for FLAG2 and uses Y. Each waiter
// is ordered after its own signaller by the write/read relation on its flag
// (precise=1), with the waiters blocked first or with both signals sent
// before either waiter arrives.
//
// "cross": W1 also reads Y. W1 read FLAG1 only, so it is ordered after S1,
// not S2: the race on Y is reported. A single "every signaller" segment for
// the condition variable would have hidden it.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: %t.O0 first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O0 lost 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 lost 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=msm=long %t.O2 lost 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: not %t.O0 lost cross 2>&1 | FileCheck %s --check-prefix=CROSS
// RUN: not %t.O2 first cross 2>&1 | FileCheck %s --check-prefix=CROSS
// SILENT-NOT: WARNING: HybridRace
// SILENT:     X=1 Y=1
// With the waiters blocked first, W1 may read Y before or after S2 writes
// it; either way the two are unordered and reported, in either order.
// CROSS:      WARNING: HybridRace: data race
// CROSS-DAG:    #0 Waiter1 {{.*}}spurious_wakeup_figure4.c:50
// CROSS-DAG:    #0 Signaller2 {{.*}}spurious_wakeup_figure4.c:77
// CROSS:        Location is global 'Y'

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int X, Y, FLAG1, FLAG2, SeenX, SeenY;
static pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t CV = PTHREAD_COND_INITIALIZER;
static int Lost, Cross, WaitersGo, Started;

static void *Waiter1(void *Arg) {
  __atomic_add_fetch(&Started, 1, __ATOMIC_RELAXED);
  if (Lost)
    invisible_wait(&WaitersGo);
  pthread_mutex_lock(&L);
  while (!FLAG1)
    pthread_cond_wait(&CV, &L);
  pthread_mutex_unlock(&L);
  SeenX = X;
  if (Cross)
    SeenY = Y;
  return Arg;
}

static void *Waiter2(void *Arg) {
  __atomic_add_fetch(&Started, 1, __ATOMIC_RELAXED);
  if (Lost)
    invisible_wait(&WaitersGo);
  pthread_mutex_lock(&L);
  while (!FLAG2)
    pthread_cond_wait(&CV, &L);
  pthread_mutex_unlock(&L);
  if (!Cross)
    SeenY = Y;
  return Arg;
}

static void *Signaller1(void *Arg) {
  X = 1;
  pthread_mutex_lock(&L);
  FLAG1 = 1;
  pthread_cond_broadcast(&CV);
  pthread_mutex_unlock(&L);
  return Arg;
}

static void *Signaller2(void *Arg) {
  Y = 1;
  pthread_mutex_lock(&L);
  FLAG2 = 1;
  pthread_cond_broadcast(&CV);
  pthread_mutex_unlock(&L);
  return Arg;
}

int main(int Argc, char **Argv) {
  Lost = Argc > 1 && !strcmp(Argv[1], "lost");
  Cross = Argc > 2;
  pthread_t W1, W2, S1, S2;
  pthread_create(&W1, NULL, Waiter1, NULL);
  pthread_create(&W2, NULL, Waiter2, NULL);
  if (!Lost) {
    // Ordering only: let both waiters block in pthread_cond_wait.
    struct timespec Ts = {0, 200 * 1000 * 1000};
    nanosleep(&Ts, NULL);
  }
  pthread_create(&S1, NULL, Signaller1, NULL);
  pthread_create(&S2, NULL, Signaller2, NULL);
  pthread_join(S1, NULL);
  pthread_join(S2, NULL);
  invisible_signal(&WaitersGo);
  pthread_join(W1, NULL);
  pthread_join(W2, NULL);
  printf("X=%d Y=%d\n", SeenX, Cross ? SeenY : SeenY);
  return 0;
}
