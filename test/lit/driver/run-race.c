// A racy C program compiled and linked by hrace-clang alone: the runtime is
// in, the race is reported with file:line (line tables are on by default),
// and the program exits non-zero.
//
// RUN: %driver_cc -fsanitize-hybrid-race -O1 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK: run-race.c:[[@LINE+9]]

#include <pthread.h>
#include <stdio.h>

static int Shared;

static void *writer(void *Arg) {
  (void)Arg;
  Shared = 1;
  return NULL;
}

int main(void) {
  pthread_t T[2];
  for (int I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, writer, NULL);
  for (int I = 0; I < 2; ++I)
    pthread_join(T[I], NULL);
  printf("shared = %d\n", Shared);
  return 0;
}
