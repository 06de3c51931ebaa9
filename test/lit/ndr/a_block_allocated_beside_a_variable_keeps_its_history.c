// Memory handed out anew forgets the accesses to its own bytes only: a
// variable of the checker is a 64-byte line, and a small heap block shares
// its line with its neighbours. T1 and T2 write A->X under M, main joins
// both, then frees the block beside A in A's line and allocates B there,
// and reads A->X: both writes are still its write dependencies, unordered
// between them.
//
// B takes the chunk freed just before (glibc's per-thread cache gives the
// same size back last in, first out); the test says that it did.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// CHECK:      B shares A's line: yes
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: {M1}):
// CHECK:        has 2 write dependencies:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// CHECK:          Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}):
// CHECK-NOT:  WARNING: HybridRace

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct Block {
  int X;
  int Pad[5];
};

static struct Block *A;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Writer(void *Arg) {
  pthread_mutex_lock(&M);
  A->X = (int)(intptr_t)Arg;
  pthread_mutex_unlock(&M);
  return Arg;
}

static int SameLine(void *P, void *Q) {
  return (uintptr_t)P / 64 == (uintptr_t)Q / 64;
}

int main(void) {
  // Blocks one after another until two in a row share a line (the earlier
  // ones stay).
  struct Block *Next = malloc(sizeof(struct Block));
  do {
    A = Next;
    Next = malloc(sizeof(struct Block));
  } while (!SameLine(A, Next));
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Writer, (void *)1);
  pthread_create(&T2, NULL, Writer, (void *)2);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  free(Next);
  struct Block *B = malloc(sizeof(struct Block));
  B->X = 0;
  printf("B shares A's line: %s\n", B == Next ? "yes" : "no");
  fflush(stdout);
  pthread_mutex_lock(&M);
  int Seen = A->X;
  pthread_mutex_unlock(&M);
  printf("done %d %d\n", Seen, B->X);
  return 0;
}
