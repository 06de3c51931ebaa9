// Four threads take the same three locks, nested, always in the order
// A, B, C (some skip B); a lock is also taken again while held through a
// recursive mutex, and a reader-writer lock is read-locked twice. No order
// is ever inverted: nothing is reported and the exit status is 0.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s --allow-empty
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: HybridRace

#define _GNU_SOURCE
#include <pthread.h>

static pthread_mutex_t A = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t B = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t C = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t R = PTHREAD_RWLOCK_INITIALIZER;
static int Counter;

static void *Work(void *Arg) {
  for (int I = 0; I < 1000; I++) {
    pthread_mutex_lock(&A);
    if (I % 2) {
      pthread_mutex_lock(&B);
      pthread_mutex_lock(&B);
    }
    pthread_mutex_lock(&C);
    pthread_rwlock_rdlock(&R);
    pthread_rwlock_rdlock(&R);
    Counter++;
    pthread_rwlock_unlock(&R);
    pthread_rwlock_unlock(&R);
    pthread_mutex_unlock(&C);
    if (I % 2) {
      pthread_mutex_unlock(&B);
      pthread_mutex_unlock(&B);
    }
    pthread_mutex_unlock(&A);
  }
  return Arg;
}

int main(void) {
  pthread_t T[4];
  for (int I = 0; I < 4; I++)
    pthread_create(&T[I], 0, Work, 0);
  for (int I = 0; I < 4; I++)
    pthread_join(T[I], 0);
  return Counter == 4000 ? 0 : 1;
}
