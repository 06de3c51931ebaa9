// A recursive mutex taken twice by each thread, with writes both inside the
// inner hold and between the inner and the outer unlock: only the outer
// unlock releases, and the next owner is ordered after all of it. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Inner = 100, Outer = 100
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

static int Inner, Outer;
static pthread_mutex_t Lock;

static void *Worker(void *Arg) {
  for (int I = 0; I < 50; ++I) {
    pthread_mutex_lock(&Lock);
    pthread_mutex_lock(&Lock);
    Inner = Inner + 1;
    pthread_mutex_unlock(&Lock);
    Outer = Outer + 1;
    pthread_mutex_unlock(&Lock);
  }
  return Arg;
}

int main(void) {
  pthread_mutexattr_t Attr;
  pthread_mutexattr_init(&Attr);
  pthread_mutexattr_settype(&Attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&Lock, &Attr);
  pthread_t T[2];
  for (int I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, Worker, NULL);
  for (int I = 0; I < 2; ++I)
    pthread_join(T[I], NULL);
  printf("Inner = %d, Outer = %d\n", Inner, Outer);
  pthread_mutex_destroy(&Lock);
  return 0;
}
