// Three threads take turns: one writes every word, then the other two read
// them all at the same moment (read/read, no race), each read handing the
// word over from the writer. The next round's writer is one of those
// readers, after a barrier that orders both reads before its write, so a
// report is false. Under msm=hb each hand-off is a plain store
// (runtime/hrace_access.h, StoredPlainly), so one reader's update may
// overwrite the other's: whichever survived, the write must not be
// reported. So it is under msm=short, whose cells here keep no access made
// under a lock (ChangeStoredPlainly). Under msm=long the hand-offs are
// compare-and-swaps and the same must hold. The writer leaves three values in each granule
// of the first half, so reads there start on byte cells; the second half
// stays in granule cells. 20,000 rounds (short: 1,000) over 1,024 words.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     hand-offs done
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_rounds.h"

#include <stdio.h>
#include <string.h>

enum { kThreads = 3, kWords = 1024 };

long Data[kWords];
long Sums[kThreads];
long Rounds;
pthread_barrier_t Barrier;

// Every word, in four segments of the writer: whole, so that each granule
// is its own whatever the readers left (msm=short's Shared-Read becomes
// Shared-Modified, one value for any part written after it); then byte 0,
// byte 1 and the rest, so that the first half's granules take three
// values and split.
static void WriteAll(long R) {
  for (int I = 0; I < kWords; I++)
    Data[I] = R + I;
  for (int Part = 0; Part < 3; Part++) {
    new_own_segment();
    for (int I = 0; I < kWords / 2; I++) {
      unsigned char *Bytes = (unsigned char *)&Data[I];
      if (Part < 2)
        Bytes[Part] = (unsigned char)R;
      else
        memset(Bytes + 2, (int)R, 6);
    }
  }
}

static void *Turns(void *Arg) {
  long Me = (long)Arg;
  for (long R = 0; R < Rounds; R++) {
    if (R % kThreads == Me)
      WriteAll(R);
    pthread_barrier_wait(&Barrier);
    if (R % kThreads != Me)
      for (int I = 0; I < kWords; I++)
        Sums[Me] += Data[I];
    pthread_barrier_wait(&Barrier);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  Rounds = Argc > 1 && !strcmp(Argv[1], "full") ? 20000 : 1000;
  pthread_barrier_init(&Barrier, 0, kThreads);
  pthread_t T[kThreads - 1];
  for (long I = 1; I < kThreads; I++)
    pthread_create(&T[I - 1], 0, Turns, (void *)I);
  Turns((void *)0);
  for (long I = 1; I < kThreads; I++)
    pthread_join(T[I - 1], 0);
  printf("hand-offs done\n");
  return 0;
}
