// libc functions are checked on exactly the bytes they touch. One thread
// copies into the first half of a buffer (memcpy, strcpy) while main works
// on the second half (memset, strlen, strcmp, strchr), and both only read a
// shared constant string: no range overlaps a write of the other thread.
// Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     first = hello, second = xxxxxxx
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>
#include <string.h>

char Buffer[32];
char Greeting[] = "hello";
char Scratch[16];

static void *FirstHalf(void *Arg) {
  memcpy(Scratch, Greeting, sizeof(Greeting));
  strcpy(Buffer, Scratch);
  return (void *)strlen(Greeting);
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, FirstHalf, NULL);
  memset(Buffer + 16, 'x', 7);
  Buffer[23] = 0;
  size_t Len = strlen(Buffer + 16) + strlen(Greeting);
  int Cmp = strcmp(Buffer + 16, Greeting);
  char *Hit = strchr(Buffer + 16, 'x');
  pthread_join(T, NULL);
  printf("first = %s, second = %s\n", Buffer, Buffer + 16);
  return Len == 12 && Cmp > 0 && Hit == Buffer + 16 ? 0 : 1;
}
