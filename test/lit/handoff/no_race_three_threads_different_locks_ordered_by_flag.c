// X is written by three threads, each under a different lock (L1, L2, L3),
// so lock sets alone would call it a race. The writes are ordered by a
// Flag, polled under F: T1 writes X, then sets Flag = 1; T2 polls until
// Flag == 1, writes X, sets Flag = 2; T3 polls until Flag == 2 and writes
// X. Each polling loop (lock F; read; unlock; usleep) is marked by the
// compiler and its exit orders the poller after the writer of the Flag it
// read, so T3 is ordered after T2, which is ordered after T1. X is a global:
// no hand-off covers it.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s
// RUN: %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O0 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     X=3

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

int X, Flag;
static pthread_mutex_t L1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t L2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t L3 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t F = PTHREAD_MUTEX_INITIALIZER;

static void WaitForFlag(int Value) {
  for (;;) {
    pthread_mutex_lock(&F);
    int Seen = Flag;
    pthread_mutex_unlock(&F);
    if (Seen == Value)
      return;
    usleep(100);
  }
}

static void SetFlag(int Value) {
  pthread_mutex_lock(&F);
  Flag = Value;
  pthread_mutex_unlock(&F);
}

static void *Thread1(void *Arg) {
  pthread_mutex_lock(&L1);
  X = 1;
  pthread_mutex_unlock(&L1);
  SetFlag(1);
  return Arg;
}

static void *Thread2(void *Arg) {
  WaitForFlag(1);
  pthread_mutex_lock(&L2);
  X = X + 1;
  pthread_mutex_unlock(&L2);
  SetFlag(2);
  return Arg;
}

static void *Thread3(void *Arg) {
  WaitForFlag(2);
  pthread_mutex_lock(&L3);
  X = X + 1;
  pthread_mutex_unlock(&L3);
  return Arg;
}

int main(void) {
  pthread_t T[3];
  pthread_create(&T[2], NULL, Thread3, NULL);
  pthread_create(&T[1], NULL, Thread2, NULL);
  pthread_create(&T[0], NULL, Thread1, NULL);
  for (int I = 0; I < 3; I++)
    pthread_join(T[I], NULL);
  printf("X=%d\n", X);
  return 0;
}
