// A location exclusive to its owner is re-stamped with plain stores when the
// owner reads it in a new segment, in the byte cells of a split granule
// (runtime/hrace_access.h, StoredPlainly). Here the words are split first
// (three values in each granule), then another thread reads the same words
// at the same moment as the owner (read/read, no race), so some of its
// updates are overwritten. Then a barrier orders both reads before a write
// by one thread or the other: whichever update survived, the write must
// not be reported. The same runs in granule cells in the second half of
// the array (the other thread's updates compare-and-swaps under msm=long,
// plain stores too under msm=hb, and under msm=short where the cell keeps
// no locked access). 20,000 rounds (short: 1,000) over 1,024 words.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     owner re-stamps done
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_rounds.h"

#include <stdio.h>
#include <string.h>

enum { kWords = 1024 };

long Data[kWords];
long Sums[2];

// Both threads read every word at once; the round's writer owns them.
static void ReadAll(long Me, long R) {
  (void)R;
  new_own_segment();
  for (int I = 0; I < kWords; I++)
    Sums[Me] += Data[I];
}

// The writer alternates, so each round's owner is the thread that wrote
// last.
static void WriteAll(long Me, long R) {
  if ((R & 1) == Me)
    for (int I = 0; I < kWords; I++)
      Data[I] = R + I;
}

// Three values in each granule of the first half: byte 0, byte 1 and the
// rest written in three segments of the main thread.
static void SplitFirstHalf(void) {
  for (int Part = 0; Part < 3; Part++) {
    for (int I = 0; I < kWords / 2; I++) {
      unsigned char *Bytes = (unsigned char *)&Data[I];
      if (Part < 2)
        Bytes[Part] = 1;
      else
        memset(Bytes + 2, 1, 6);
    }
    new_own_segment();
  }
}

int main(int Argc, char **Argv) {
  SplitFirstHalf();
  run_two_thread_rounds(Argc > 1 && !strcmp(Argv[1], "full") ? 20000 : 1000,
                        ReadAll, WriteAll);
  printf("owner re-stamps done\n");
  return 0;
}
