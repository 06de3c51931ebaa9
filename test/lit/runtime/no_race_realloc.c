// realloc forgets the history of memory it gives back. One thread fills a
// large block and shrinks it with realloc (in place: the tail returns to
// the allocator); another thread then allocates and fills a block carved
// from that tail. Unordered, but the tail's old contents belonged to a
// dead object: nothing is reported.
//
// The invisible signals only make the realloc come before the second
// thread's malloc, with no other allocation in between.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb GLIBC_TUNABLES=glibc.malloc.arena_max=1 %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     shrunk in place: yes, reused the tail: yes
// CHECK-NOT: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kLarge = 8192, kSmall = 64, kTail = 4000 };
static int Shrunk, Allocated;
static char *Large, *Small, *Tail;

static void *First(void *Arg) {
  Large = malloc(kLarge);
  memset(Large, 1, kLarge);
  Small = realloc(Large, kSmall);
  invisible_signal(&Shrunk);
  invisible_wait(&Allocated); // this thread's exit frees memory too
  return Arg;
}

static void *Second(void *Arg) {
  free(malloc(1)); // sets up this thread's allocator cache first
  invisible_wait(&Shrunk);
  Tail = malloc(kTail);
  invisible_signal(&Allocated);
  memset(Tail, 2, kTail);
  return Arg;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, First, NULL);
  pthread_create(&B, NULL, Second, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  printf("shrunk in place: %s, reused the tail: %s\n",
         Small == Large ? "yes" : "no",
         Tail > Small && Tail < Small + kLarge ? "yes" : "no");
  return 0;
}
