// Byte precision for every pair of access sizes (1, 2, 4, 8, 16 bytes),
// aligned and unaligned: a write by one thread and an unordered read or
// write by another race exactly when they share a byte. For each pair, the
// second access takes every position from just before the first (adjacent,
// no shared byte) to just after it, so partial overlaps at either end,
// containment both ways and the adjacent non-overlaps are all covered, in
// granules that hold one value, that hold two, and that are split.
//
// Each case runs in its own child process (reports are made once per pair
// of source lines, so one process could report only the first case); the
// child exits with the report exit code when it reported anything.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=symbolize=0:exitcode=66 %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=symbolize=0:exitcode=66:msm=long %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=symbolize=0:exitcode=66:msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: mismatch
// CHECK:     670 cases, 570 races reported where bytes overlap, none elsewhere

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

typedef uint16_t __attribute__((aligned(1), may_alias)) U16;
typedef uint32_t __attribute__((aligned(1), may_alias)) U32;
typedef uint64_t __attribute__((aligned(1), may_alias)) U64;
typedef unsigned __int128 __attribute__((aligned(1), may_alias)) U128;

_Alignas(64) unsigned char Buffer[64];

struct Access {
  int Size;
  int Offset;
  int Write;
};

static __attribute__((noinline)) void Do(struct Access A) {
  unsigned char *P = Buffer + A.Offset;
  switch (A.Size) {
  case 1:
    if (A.Write)
      *P = 1;
    else
      __asm__ volatile("" ::"r"(*P));
    break;
  case 2:
    if (A.Write)
      *(U16 *)P = 1;
    else
      __asm__ volatile("" ::"r"(*(U16 *)P));
    break;
  case 4:
    if (A.Write)
      *(U32 *)P = 1;
    else
      __asm__ volatile("" ::"r"(*(U32 *)P));
    break;
  case 8:
    if (A.Write)
      *(U64 *)P = 1;
    else
      __asm__ volatile("" ::"r"(*(U64 *)P));
    break;
  case 16:
    if (A.Write) {
      *(U128 *)P = 1;
    } else {
      unsigned __int128 V = *(U128 *)P;
      __asm__ volatile("" ::"r"((uint64_t)V), "r"((uint64_t)(V >> 64)));
    }
    break;
  }
}

static struct Access First;
static int FirstDone;

static void *FirstThread(void *Arg) {
  Do(First);
  invisible_signal(&FirstDone);
  return Arg;
}

// In a child: the first access in a thread, the second in main after it
// (ordered only invisibly). Some cases first give the granules a history,
// so that they hold one value on some bytes or are already split.
static void RunCase(struct Access A, struct Access B, int History) {
  if (History == 1)
    for (int I = 0; I < 64; I += 8)
      *(U64 *)(Buffer + I) = 2;
  if (History == 2)
    for (int I = 0; I < 64; I += 2)
      Buffer[I] = 2;
  First = A;
  pthread_t T;
  pthread_create(&T, 0, FirstThread, 0);
  invisible_wait(&FirstDone);
  Do(B);
  pthread_join(T, 0);
  exit(0);
}

int main(void) {
  static const int Sizes[] = {1, 2, 4, 8, 16};
  // A 16-aligned first access, and one at an odd offset.
  static const int FirstOffsets[] = {16, 21};
  int Cases = 0, Races = 0, Mismatches = 0;
  for (int O = 0; O < 2; O++)
    for (int SA = 0; SA < 5; SA++)
      for (int SB = 0; SB < 5; SB++) {
        struct Access A = {Sizes[SA], FirstOffsets[O], 1};
        for (int Pos = A.Offset - Sizes[SB]; Pos <= A.Offset + A.Size;
             Pos++) {
          struct Access B = {Sizes[SB], Pos, Cases & 1};
          int Overlap = Pos < A.Offset + A.Size && A.Offset < Pos + B.Size;
          pid_t Pid = fork();
          if (Pid == 0)
            RunCase(A, B, Cases % 3);
          int Status = 0;
          waitpid(Pid, &Status, 0);
          int Reported = WIFEXITED(Status) && WEXITSTATUS(Status) == 66;
          if (!WIFEXITED(Status) || (!Reported && WEXITSTATUS(Status) != 0))
            printf("mismatch: case %d did not finish\n", Cases);
          if (Reported != Overlap) {
            printf("mismatch: %s of %d at %d, then %s of %d at %d: %s\n",
                   "write", A.Size, A.Offset, B.Write ? "write" : "read",
                   B.Size, B.Offset,
                   Reported ? "reported, no shared byte" : "missed");
            Mismatches++;
          }
          Races += Reported;
          Cases++;
        }
      }
  printf("%d cases, %d races reported where bytes overlap, %s\n", Cases,
         Races, Mismatches ? "mismatches above" : "none elsewhere");
  return 0;
}
