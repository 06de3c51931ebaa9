// A thread's history keeps its newest write however many epochs only read
// the variable after it (ndr_history=2 here): T1 and T2 write X under M,
// main joins both, writes X = 5 itself, then reads X in three critical
// sections. Each read depends on main's write alone; T1's and T2's writes,
// which would make the read look non-deterministic, stay overwritten.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1:ndr_history=2 %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=ndr=1:ndr_history=1 %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     X = 5 5 5
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Writer(void *Arg) {
  pthread_mutex_lock(&M);
  X = (int)(long)Arg;
  pthread_mutex_unlock(&M);
  return Arg;
}

static int ReadLocked(void) {
  pthread_mutex_lock(&M);
  int Seen = X;
  pthread_mutex_unlock(&M);
  return Seen;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Writer, (void *)1);
  pthread_create(&T2, NULL, Writer, (void *)2);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  X = 5;
  int A = ReadLocked();
  int B = ReadLocked();
  int C = ReadLocked();
  printf("X = %d %d %d\n", A, B, C);
  return 0;
}
