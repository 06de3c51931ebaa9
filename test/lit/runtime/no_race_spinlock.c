// pthread spin locks (lock and trylock) order the critical sections like a
// mutex does. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Counter = 200
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <sched.h>
#include <stdio.h>

static int Counter;
static pthread_spinlock_t Lock;

static void *WithLock(void *Arg) {
  for (int I = 0; I < 100; ++I) {
    pthread_spin_lock(&Lock);
    Counter = Counter + 1;
    pthread_spin_unlock(&Lock);
  }
  return Arg;
}

static void *WithTrylock(void *Arg) {
  for (int I = 0; I < 100; ++I) {
    while (pthread_spin_trylock(&Lock) != 0)
      sched_yield();
    Counter = Counter + 1;
    pthread_spin_unlock(&Lock);
  }
  return Arg;
}

int main(void) {
  pthread_spin_init(&Lock, PTHREAD_PROCESS_PRIVATE);
  pthread_t A, B;
  pthread_create(&A, NULL, WithLock, NULL);
  pthread_create(&B, NULL, WithTrylock, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("Counter = %d\n", Counter);
  pthread_spin_destroy(&Lock);
  return 0;
}
