// Race-free use of each shared state, under every machine: many threads
// only reading data written before they were created (Shared-Read), a
// counter always updated under one mutex (Shared-Modified), and after the
// joins main reads and writes everything without locks (ordered by join; the
// join rule puts the locations back to exclusive).
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK: sum=4000 counter=400 table0=1

#include <pthread.h>
#include <stdio.h>

static int Table[64];
static int Counter;
static long Sums[4];
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Worker(void *Arg) {
  long Id = (long)Arg;
  for (int Round = 0; Round < 100; Round++) {
    for (int I = 0; I < 64; I++)
      Sums[Id] += Table[I] > 0;
    pthread_mutex_lock(&M);
    Counter++;
    pthread_mutex_unlock(&M);
  }
  return NULL;
}

int main(void) {
  for (int I = 0; I < 64; I++)
    Table[I] = I < 10;
  pthread_t T[4];
  for (long I = 0; I < 4; I++)
    pthread_create(&T[I], NULL, Worker, (void *)I);
  for (int I = 0; I < 4; I++)
    pthread_join(T[I], NULL);
  long Sum = 0;
  for (int I = 0; I < 4; I++)
    Sum += Sums[I];
  Counter *= 1;
  Table[0] = 1;
  printf("sum=%ld counter=%d table0=%d\n", Sum, Counter, Table[0]);
  return 0;
}
