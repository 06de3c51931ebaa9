// Freed memory carries no history. One thread allocates a block, fills it
// and frees it; another thread then allocates a block of the same size
// (with a single malloc arena the allocator hands back the same block) and
// fills it. Nothing orders the two threads, yet nothing is reported: the
// second owner's writes are to a new object. The same holds when the block
// is released with realloc(p, 0), which glibc treats as free(p).
//
// The invisible signals only make Second's first allocation come before
// First's, and the release come before the second malloc with no other
// allocation in between, so that the block is reused.
//
// The hybrid machines order nothing here either: a free's write left in
// the block's first bytes, which the allocation rewrites without resetting
// them first (MemoryAllocatedBy), would be reported as a race.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb GLIBC_TUNABLES=glibc.malloc.arena_max=1 %t 2>&1 | FileCheck %s
// RUN: env GLIBC_TUNABLES=glibc.malloc.arena_max=1 %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long GLIBC_TUNABLES=glibc.malloc.arena_max=1 %t 2>&1 | FileCheck %s
// RUN: %hrace_cc -DRELEASE_WITH_REALLOC %s -o %t.realloc
// RUN: env HRACE_OPTIONS=msm=hb GLIBC_TUNABLES=glibc.malloc.arena_max=1 %t.realloc 2>&1 | FileCheck %s
// A 64 KiB block has its shadow brought in at allocation and cleared in
// place, not given back (PrefaultShadowRange): cleared all the same.
// RUN: %hrace_cc -DBLOCK_SIZE=65536 %s -o %t.large
// RUN: env GLIBC_TUNABLES=glibc.malloc.arena_max=1 %t.large 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb GLIBC_TUNABLES=glibc.malloc.arena_max=1 %t.large 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     same block: yes
// CHECK-NOT: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 2000 // too large for the per-thread cache
#endif
enum { kSize = BLOCK_SIZE };
static int SecondReady, Freed, Reallocated;

static void Fill(char *Block, char Value) {
  for (int I = 0; I < kSize; I += 8)
    Block[I] = Value;
}

static void *First(void *Arg) {
  invisible_wait(&SecondReady);
  char *Block = malloc(kSize);
  Fill(Block, 1);
#ifdef RELEASE_WITH_REALLOC
  (void)realloc(Block, 0); // glibc frees Block and returns NULL
#else
  free(Block);
#endif
  invisible_signal(&Freed);
  invisible_wait(&Reallocated); // this thread's exit frees memory too
  return Block;
}

static void *Second(void *Arg) {
  // Sets up this thread's allocator cache before First frees: done later,
  // the small allocation would be carved out of the freed block.
  free(malloc(1));
  invisible_signal(&SecondReady);
  invisible_wait(&Freed);
  char *Block = malloc(kSize);
  invisible_signal(&Reallocated);
  Fill(Block, 2);
  free(Block);
  return Block;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, First, NULL);
  pthread_create(&B, NULL, Second, NULL);
  void *BlockA, *BlockB;
  pthread_join(A, &BlockA);
  pthread_join(B, &BlockB);
  printf("same block: %s\n", BlockA == BlockB ? "yes" : "no");
  return 0;
}
