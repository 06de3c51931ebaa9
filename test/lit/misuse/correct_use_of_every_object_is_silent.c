// Every pthreads object used as POSIX allows, including the calls whose
// errors are their normal use (a trylock finding the lock taken, timed
// waits timing out, sem_trywait at zero), the serial thread destroying a
// barrier as soon as its round completes, a condition variable used with
// another mutex once nobody waits on it, and objects of different kinds
// living one after another at the same stack address without a destroy.
// Nothing is reported, in every mode, and the exit status is 0.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK: total 8000
// CHECK-NOT: HybridRace

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t Recursive = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_rwlock_t R = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t Spin;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static sem_t S;
static pthread_barrier_t *Round;
static long Total;

static void *Work(void *Arg) {
  for (int I = 0; I < 1000; I++) {
    pthread_mutex_lock(&Recursive);
    pthread_mutex_lock(&Recursive);
    pthread_rwlock_rdlock(&R);
    pthread_spin_lock(&Spin);
    Total++;
    pthread_spin_unlock(&Spin);
    pthread_rwlock_unlock(&R);
    pthread_mutex_unlock(&Recursive);
    pthread_mutex_unlock(&Recursive);
    pthread_rwlock_wrlock(&R);
    pthread_spin_lock(&Spin);
    Total++;
    pthread_spin_unlock(&Spin);
    pthread_rwlock_unlock(&R);
  }
  sem_post(&S);
  if (pthread_barrier_wait(Round) == PTHREAD_BARRIER_SERIAL_THREAD)
    pthread_barrier_destroy(Round);
  return Arg;
}

static __attribute__((noinline)) void StackMutex(void) {
  pthread_mutex_t Local;
  pthread_mutex_init(&Local, 0);
  pthread_mutex_lock(&Local);
  pthread_mutex_unlock(&Local);
}

static __attribute__((noinline)) void StackRwLock(void) {
  pthread_rwlock_t Local = PTHREAD_RWLOCK_INITIALIZER;
  pthread_rwlock_rdlock(&Local);
  pthread_rwlock_unlock(&Local);
}

static __attribute__((noinline)) void StackBarrier(void) {
  pthread_barrier_t Local;
  pthread_barrier_init(&Local, 0, 1);
  pthread_barrier_wait(&Local);
}

int main(void) {
  pthread_spin_init(&Spin, 0);
  sem_init(&S, 0, 0);
  pthread_barrier_t Barrier;
  Round = &Barrier;
  pthread_barrier_init(Round, 0, 4);
  pthread_t T[4];
  for (int I = 0; I < 4; I++)
    pthread_create(&T[I], 0, Work, 0);
  for (int I = 0; I < 4; I++)
    sem_wait(&S);
  for (int I = 0; I < 4; I++)
    pthread_join(T[I], 0);

  pthread_mutex_t Other = PTHREAD_MUTEX_INITIALIZER;
  struct timespec Past = {0, 0};
  pthread_mutex_lock(&M);
  if (pthread_cond_timedwait(&C, &M, &Past) != ETIMEDOUT)
    return 1;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&Other);
  pthread_cond_timedwait(&C, &Other, &Past);
  pthread_mutex_unlock(&Other);

  pthread_mutex_lock(&M);
  if (pthread_mutex_trylock(&M) != EBUSY)
    return 1;
  pthread_mutex_unlock(&M);
  if (sem_trywait(&S) == 0 || errno != EAGAIN)
    return 1;
  if (sem_timedwait(&S, &Past) == 0 || errno != ETIMEDOUT)
    return 1;

  for (int I = 0; I < 3; I++) {
    StackMutex();
    StackRwLock();
    StackBarrier();
  }

  pthread_cond_destroy(&C);
  pthread_mutex_destroy(&Other);
  pthread_mutex_destroy(&M);
  pthread_rwlock_destroy(&R);
  pthread_spin_destroy(&Spin);
  sem_destroy(&S);
  printf("total %ld\n", Total);
  return 0;
}
