// Two readers read a table under the read lock while a writer updates it
// under the write lock. Readers may overlap (reads never race with reads);
// a write unlock orders the next readers, and every read unlock orders the
// next write lock. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Table[3] = 50
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

static int Table[8];
static pthread_rwlock_t Lock = PTHREAD_RWLOCK_INITIALIZER;

static void *Reader(void *Arg) {
  long Sum = 0;
  for (int Round = 0; Round < 50; ++Round) {
    pthread_rwlock_rdlock(&Lock);
    for (int I = 0; I < 8; ++I)
      Sum += Table[I];
    pthread_rwlock_unlock(&Lock);
  }
  return (void *)Sum;
}

static void *Writer(void *Arg) {
  for (int Round = 0; Round < 50; ++Round) {
    pthread_rwlock_wrlock(&Lock);
    for (int I = 0; I < 8; ++I)
      Table[I] = Table[I] + 1;
    pthread_rwlock_unlock(&Lock);
  }
  return Arg;
}

int main(void) {
  pthread_t R1, R2, W;
  pthread_create(&R1, NULL, Reader, NULL);
  pthread_create(&W, NULL, Writer, NULL);
  pthread_create(&R2, NULL, Reader, NULL);
  pthread_join(R1, NULL);
  pthread_join(R2, NULL);
  pthread_join(W, NULL);
  printf("Table[3] = %d\n", Table[3]);
  return 0;
}
