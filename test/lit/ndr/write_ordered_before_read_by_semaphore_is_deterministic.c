// Table II of seeds/002, R&W Timed (no race): T2 writes X and posts a
// semaphore; T1 waits on it and then reads X. The post orders the write
// before the read, so the write is the read's only write dependency and is
// not parallel to it: deterministic, nothing reported.
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
static sem_t Written;

static void *Reader(void *Arg) {
  sem_wait(&Written);
  int Seen = X;
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  X = 1;
  sem_post(&Written);
  return Arg;
}

int main(void) {
  sem_init(&Written, 0, 0);
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  void *Seen;
  pthread_join(T1, &Seen);
  pthread_join(T2, NULL);
  printf("read %ld\n", (long)Seen);
  printf("done\n");
  sem_destroy(&Written);
  return 0;
}
