// 20,000 detached threads (short: 2,000) over the process's life, at most 64
// alive at once (a semaphore counts them out): each releases its slot when
// it ends, and the process neither dies nor reports.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK-NOT: HybridRace:
// CHECK:     all detached threads ended
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>

static sem_t Room, Ended;
static long Done;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Work(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&M);
  Done++;
  pthread_mutex_unlock(&M);
  sem_post(&Ended);
  sem_post(&Room);
  return 0;
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 && !strcmp(Argv[1], "full") ? 20000 : 2000;
  sem_init(&Room, 0, 64);
  sem_init(&Ended, 0, 0);
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  for (long I = 0; I < N; I++) {
    sem_wait(&Room);
    pthread_t T;
    if (pthread_create(&T, &Attr, Work, 0))
      return 1;
  }
  for (long I = 0; I < N; I++)
    sem_wait(&Ended);
  pthread_mutex_lock(&M);
  printf("all detached threads ended%s\n", Done == N ? "" : " (WRONG count)");
  pthread_mutex_unlock(&M);
  return 0;
}
