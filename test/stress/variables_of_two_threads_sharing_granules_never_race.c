// Two threads own alternate variables that share granules: 4-byte words
// (each granule holds one of each thread), bytes (each granule four of each,
// interleaved), and the halves of a fresh block allocated every round. In
// the first phase of each round both threads at once write their own
// variables, in segments of their own: whole words, a half of a word, bytes
// one at a time. The granules' cells change value, change masks, split and
// come back, on both threads at once. In the second phase each reads the
// other's, which the barrier orders after their writes. Nothing is accessed
// by both threads unordered, so a report is false: it would mean that one
// thread's store of a granule gave a byte of the other thread's variable to
// its own cell. msm=hb stores both cells of a granule plainly
// (StoreGranulePair), which may forget the other thread's concurrent change
// but must never tear the pair: a pair read or stored in two halves would
// give a byte to two cells. With -DRACE, thread 1 starts the first round
// once thread 0 has written its variables (a relaxed atomic flag orders
// them in time and nothing for the detector) by writing one byte of thread
// 0's: that byte, and it alone, is reported. 2,000 rounds (short: 100) over
// 4 KB each.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: env HRACE_OPTIONS=msm=long %t %scale 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN-NOT: WARNING: HybridRace
// CLEAN:     variables written
// CLEAN-NOT: WARNING: HybridRace
//
// RUN: %hrace_cc -DRACE %s -o %t.race
// RUN: not %t.race %scale 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: env HRACE_OPTIONS=msm=hb not %t.race %scale 2>&1 | FileCheck %s --check-prefix=RACE
// RACE:      racy byte at [[ADDR:0x[0-9a-f]+]]
// RACE-NOT:  WARNING: HybridRace
// RACE:      WARNING: HybridRace: data race
// RACE:      Write of size 1 at [[ADDR]]
// RACE-NOT:  WARNING: HybridRace
// RACE:      variables written
// RACE-NOT:  WARNING: HybridRace

#include "hrace_test_rounds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kBytes = 4096, kWords = kBytes / 4, kRacy = 2048 };

// Word I and byte I belong to thread I % 2.
unsigned Words[kWords] __attribute__((aligned(8)));
unsigned char Bytes[kBytes] __attribute__((aligned(8)));
// Each round's fresh block: bytes [0, 4) of a granule are thread 0's,
// [4, 8) thread 1's, each taken by its first access as if New.
unsigned char *Fresh;
long Sums[2];
#ifdef RACE
int Written;
#endif

static void WriteOwn(long Me, long R) {
#ifdef RACE
  if (R == 0 && Me == 1) {
    while (!__atomic_load_n(&Written, __ATOMIC_RELAXED))
      ;
    Bytes[kRacy] = 7;
  }
#endif
  for (int I = (int)Me; I < kWords; I += 2) {
    Words[I] = (unsigned)(R + I);
    // Half of the word in a segment of its own, then the whole again in
    // the next round: its cell's mask changes.
    if ((I / 2 + R) % 3 == 0) {
      new_own_segment();
      unsigned short Half = (unsigned short)R;
      memcpy((char *)&Words[I] + 2 * (R & 1), &Half, sizeof(Half));
    }
    if ((I / 2 + R + Me) % 7 == 0)
      new_own_segment();
  }
  for (int I = (int)Me; I < kBytes; I += 2) {
    Bytes[I] = (unsigned char)(R + I);
    if ((I / 2 + R + Me) % 5 == 0)
      new_own_segment();
  }
  for (int G = 0; G < kBytes; G += 8)
    for (int I = G + 4 * (int)Me; I < G + 4 * (int)Me + 4; I++)
      Fresh[I] = (unsigned char)R;
#ifdef RACE
  if (R == 0 && Me == 0)
    __atomic_store_n(&Written, 1, __ATOMIC_RELAXED);
#endif
}

static void ReadOthers(long Me, long R) {
  for (int I = 1 - (int)Me; I < kWords; I += 2)
    Sums[Me] += Words[I];
  for (int I = 1 - (int)Me; I < kBytes; I += 2)
    Sums[Me] += Bytes[I];
  for (int G = 0; G < kBytes; G += 8)
    Sums[Me] += Fresh[G + 4 * (1 - (int)Me)];
  // Every read of the block is done once both threads pass the barrier
  // after this phase, and the first phase of the next round needs the new
  // one: thread 0 swaps them between the two.
  if (Me == 0) {
    pthread_barrier_wait(&TwoThreadRounds.B);
    free(Fresh);
    Fresh = malloc(kBytes);
  } else {
    pthread_barrier_wait(&TwoThreadRounds.B);
  }
  (void)R;
}

int main(int Argc, char **Argv) {
  printf("racy byte at %p\n", (void *)&Bytes[kRacy]);
  fflush(stdout);
  Fresh = malloc(kBytes);
  run_two_thread_rounds(Argc > 1 && !strcmp(Argv[1], "full") ? 2000 : 100,
                        WriteOwn, ReadOthers);
  free(Fresh);
  printf("variables written\n");
  return 0;
}
