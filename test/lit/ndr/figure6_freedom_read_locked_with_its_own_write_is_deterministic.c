// seeds/002 figure 6, freedom: T1 writes X and reads it back in one critical
// section of M; T2 writes X under M too. Since T1's own write and its read
// lie in one continuous holding of M, no other write made under M can be a
// write dependency of the read: T2's write comes before the section
// (overwritten) or after it (irrelevant), never in between. The read's one
// dependency is T1's own write; it always reads 1. Deterministic: nothing
// reported, although T2's write is parallel to the read.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t 2>&1 | FileCheck %s --check-prefix=SILENT
// SILENT-NOT: non-deterministic read
// SILENT:     read 1
// SILENT:     done
// SILENT-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

// Volatile, so that -O1 reads X back instead of reusing the value stored.
volatile int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *WriteThenRead(void *Arg) {
  pthread_mutex_lock(&M);
  X = 1;
  int Seen = X;
  pthread_mutex_unlock(&M);
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  pthread_mutex_lock(&M);
  X = 2;
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, WriteThenRead, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  void *Seen;
  pthread_join(T1, &Seen);
  pthread_join(T2, NULL);
  printf("read %ld\n", (long)Seen);
  printf("done\n");
  return 0;
}
