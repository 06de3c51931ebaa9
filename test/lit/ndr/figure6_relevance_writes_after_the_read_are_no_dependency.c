// seeds/002 figure 6, relevance: a write that the read happens before is no
// write dependency of it. T1 reads X and then writes it itself; after that,
// ordered after T1 by a semaphore posted twice, T2 and T3 each write X
// under M. The read's only write dependency is main's write before the
// threads were created: deterministic, nothing reported. Without relevance
// T2's and T3's writes, which neither happens before the other, would both
// be dependencies of the read, and it would be reported.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t 2>&1 | FileCheck %s --check-prefix=SILENT
// SILENT-NOT: non-deterministic read
// SILENT:     read 1
// SILENT:     done
// SILENT-NOT: non-deterministic read

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static sem_t ReadDone;

static void *Reader(void *Arg) {
  int Seen = X;
  X = 7;
  sem_post(&ReadDone);
  sem_post(&ReadDone);
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  sem_wait(&ReadDone);
  pthread_mutex_lock(&M);
  X = (int)(long)Arg;
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(void) {
  sem_init(&ReadDone, 0, 0);
  X = 1;
  pthread_t T1, T2, T3;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, (void *)2);
  pthread_create(&T3, NULL, Writer, (void *)3);
  void *Seen;
  pthread_join(T1, &Seen);
  pthread_join(T2, NULL);
  pthread_join(T3, NULL);
  printf("read %ld\n", (long)Seen);
  printf("done\n");
  sem_destroy(&ReadDone);
  return 0;
}
