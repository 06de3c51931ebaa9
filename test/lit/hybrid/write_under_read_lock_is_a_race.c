// Reader-writer locks in the lock sets: a read holds every lock (read- or
// write-held), a write only write-held ones. Readers under rdlock and a
// writer under wrlock share {M1}: silent. A write made under a *read* lock is
// protected by nothing and races with the readers.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OK
// RUN: not %t bug 2>&1 | FileCheck %s --check-prefix=BUG

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int Table;
static pthread_rwlock_t L = PTHREAD_RWLOCK_INITIALIZER;
static int Bug;

static void *Reader(void *Arg) {
  for (int I = 0; I < 20; I++) {
    pthread_rwlock_rdlock(&L);
    (void)*(volatile int *)&Table;
    pthread_rwlock_unlock(&L);
  }
  return Arg;
}

static void *Writer(void *Arg) {
  for (int I = 0; I < 20; I++) {
    if (Bug)
      pthread_rwlock_rdlock(&L);
    else
      pthread_rwlock_wrlock(&L);
    Table++;
    pthread_rwlock_unlock(&L);
  }
  return Arg;
}

int main(int Argc, char **Argv) {
  (void)Argv;
  Bug = Argc > 1;
  pthread_t R1, R2, W;
  pthread_create(&R1, NULL, Reader, NULL);
  pthread_create(&R2, NULL, Reader, NULL);
  pthread_create(&W, NULL, Writer, NULL);
  pthread_join(R1, NULL);
  pthread_join(R2, NULL);
  pthread_join(W, NULL);
  printf("Table=%d\n", Table);
  return 0;
}
// OK-NOT: WARNING: HybridRace
// OK:     Table=20
// BUG:    WARNING: HybridRace: data race
// BUG:    by thread T3 (locks held: {M1}):
// BUG:    #0 Writer {{.*}}write_under_read_lock_is_a_race.c:33
