// Memory handed out anew forgets the accesses to what was there before:
// T1 writes and reads a word in a page it maps, then unmaps it; T2 maps a
// page at the same address and writes and reads the word there. T1's write
// is no dependency of T2's read (the two threads are never ordered, so it
// would be a parallel one): the mapping, like malloc reusing freed memory,
// starts the word's history again.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     T2 read 2
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>

static char *Page;
static int Unmapped;

static void *Thread1(void *Arg) {
  volatile int *Word = (volatile int *)Page;
  *Word = 1;
  int Seen = *Word;
  munmap(Page, 4096);
  invisible_signal(&Unmapped);
  return (void *)(long)Seen;
}

static void *Thread2(void *Arg) {
  invisible_wait(&Unmapped);
  char *Again = mmap(Page, 4096, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  volatile int *Word = (volatile int *)Again;
  *Word = 2;
  printf("T2 read %d\n", *Word);
  return Arg;
}

int main(void) {
  Page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
              -1, 0);
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Thread1, NULL);
  pthread_create(&T2, NULL, Thread2, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  return 0;
}
