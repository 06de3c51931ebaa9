// free writes the whole block: a free that is not ordered with another
// thread's access to the block races with it, whichever comes first, and is
// reported as a write by free called from the program's function (every
// machine). "free-after-use": T1 writes a field, T2 frees the block.
// "use-after-free": T1 frees the block, T2 then reads a field: the previous
// write is T1's free. "realloc": a realloc that moves the block frees the
// old one. Race-free: the free after a join, and memory that the allocator
// hands to another thread after a free (the allocator orders the two).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t free-after-use 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: env HRACE_OPTIONS=msm=hb not %t free-after-use 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: env HRACE_OPTIONS=msm=long not %t free-after-use 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: not %t use-after-free 2>&1 | FileCheck %s --check-prefix=UAF
// RUN: env HRACE_OPTIONS=msm=hb not %t use-after-free 2>&1 | FileCheck %s --check-prefix=UAF
// RUN: not %t realloc 2>&1 | FileCheck %s --check-prefix=REALLOC
// RUN: %t joined 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t joined 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: %t reused 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t reused 2>&1 | FileCheck %s --check-prefix=QUIET
// FREE:        WARNING: HybridRace: data race
// FREE-NEXT:     Write of size 64 at [[BLOCK:0x[0-9a-f]+]] by thread T2 (locks held: none):
// FREE-NEXT:       #0 free
// FREE-NEXT:       #1 Second
// FREE:          Previous write of size 4 at [[BLOCK]] by thread T1 (locks held: none):
// FREE-NEXT:       #0 First
// FREE:        SUMMARY: HybridRace: data race {{.*}}free_is_a_write_to_the_block.c:{{[0-9]+}} in Second
// UAF:         WARNING: HybridRace: data race
// UAF-NEXT:      Read of size 4 at [[BLOCK:0x[0-9a-f]+]] by thread T2 (locks held: none):
// UAF-NEXT:        #0 Second
// UAF:           Previous write of size 64 at [[BLOCK]] by thread T1 (locks held: none):
// UAF-NEXT:        #0 free
// REALLOC:     WARNING: HybridRace: data race
// REALLOC-NEXT:  Write of size 64 at {{.*}} by thread T2 (locks held: none):
// REALLOC-NEXT:    #0 realloc
// REALLOC-NEXT:    #1 Second
// QUIET-NOT:   WARNING: HybridRace
// QUIET:       done

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *Mode;
static int *Block, *Moved;
static int FirstDone;

static void *First(void *Arg) {
  (void)Arg;
  if (!strcmp(Mode, "use-after-free"))
    free(Block);
  else
    Block[0] = 1;
  invisible_signal(&FirstDone);
  return 0;
}

static void *Second(void *Arg) {
  (void)Arg;
  invisible_wait(&FirstDone);
  if (!strcmp(Mode, "use-after-free")) {
    printf("read %d\n", Block[0]);
  } else if (!strcmp(Mode, "realloc")) {
    // Far larger: the block moves.
    Moved = realloc(Block, 1 << 20);
  } else {
    free(Block);
  }
  return 0;
}

// T1 frees a block; main, ordered after it only by the allocator, gets memory
// that may be the same block and writes all of it.
static void *FreeOnly(void *Arg) {
  (void)Arg;
  free(Block);
  invisible_signal(&FirstDone);
  return 0;
}

int main(int Argc, char **Argv) {
  (void)Argc;
  Mode = Argv[1];
  Block = malloc(64);
  pthread_t T1, T2;
  if (!strcmp(Mode, "joined")) {
    pthread_create(&T1, 0, First, 0);
    pthread_join(T1, 0);
    free(Block);
  } else if (!strcmp(Mode, "reused")) {
    pthread_create(&T1, 0, FreeOnly, 0);
    invisible_wait(&FirstDone);
    for (int I = 0; I < 16; I++) {
      int *Again = malloc(64);
      memset(Again, 0, 64);
      free(Again);
    }
    pthread_join(T1, 0);
  } else {
    pthread_create(&T1, 0, First, 0);
    pthread_create(&T2, 0, Second, 0);
    pthread_join(T1, 0);
    pthread_join(T2, 0);
  }
  free(Moved);
  printf("done\n");
  return 0;
}
