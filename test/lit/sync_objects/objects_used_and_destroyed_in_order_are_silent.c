// Every kind of synchronisation object initialised, used by two threads and
// destroyed in the orders POSIX allows, which the detector must not call
// races in any machine: a condition variable destroyed by the thread that
// broadcast while the woken waiter may still be returning from its wait; a
// mutex whose last user is another thread, destroyed after a join; a
// barrier and a semaphore destroyed after the other thread was joined; objects in a heap block freed by the thread that
// took the lock last.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:     done
// CHECK-NOT: WARNING

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

pthread_mutex_t M;
pthread_cond_t C;
int Ready;
pthread_barrier_t B;
sem_t S;

struct Shared {
  pthread_mutex_t Lock;
  int Users;
};
struct Shared *Obj;

static void *Waiter(void *Arg) {
  pthread_mutex_lock(&M);
  while (!Ready)
    pthread_cond_wait(&C, &M);
  pthread_mutex_unlock(&M);
  pthread_barrier_wait(&B);
  sem_wait(&S);
  pthread_mutex_lock(&Obj->Lock);
  Obj->Users++;
  pthread_mutex_unlock(&Obj->Lock);
  return Arg;
}

int main(void) {
  pthread_mutex_init(&M, NULL);
  pthread_cond_init(&C, NULL);
  pthread_barrier_init(&B, NULL, 2);
  sem_init(&S, 0, 0);
  Obj = malloc(sizeof *Obj);
  pthread_mutex_init(&Obj->Lock, NULL);
  Obj->Users = 0;
  pthread_t T;
  pthread_create(&T, NULL, Waiter, NULL);
  pthread_mutex_lock(&M);
  Ready = 1;
  pthread_cond_broadcast(&C);
  pthread_mutex_unlock(&M);
  pthread_cond_destroy(&C);
  pthread_barrier_wait(&B);
  sem_post(&S);
  pthread_join(T, NULL);
  pthread_barrier_destroy(&B);
  pthread_mutex_destroy(&M);
  sem_destroy(&S);
  pthread_mutex_lock(&Obj->Lock);
  int Users = Obj->Users;
  pthread_mutex_unlock(&Obj->Lock);
  pthread_mutex_destroy(&Obj->Lock);
  free(Obj);
  printf("done: %d user\n", Users);
  return 0;
}
