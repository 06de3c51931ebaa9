// Two threads read a buffer in three-byte pixels, each from a rotated start
// and in segments of its own, so that the granules' bytes take three values
// (split), come back to two (the granule goes back to cells and gives its
// block to its split stripe) and split again with a block another granule
// gave back, over and over, on both threads at once (shadow/hrace_shadow.h).
// Each thread also writes a buffer of its own the same way. A barrier then
// orders every read before one thread's write of the shared buffer. A byte
// cell written for one granule in a block that another granule had taken
// meanwhile would put a read of the other thread into a thread's own
// buffer, or a read the barrier does not order into the shared one, and a
// write would be reported (a block given back while its granule still used
// it failed here). With -DRACE, the second thread also writes one byte
// during the reads: that byte, and it alone, is reported. 2,000 rounds
// (short: 100) over 4 KB.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: env HRACE_OPTIONS=msm=long %t %scale 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN-NOT: WARNING: HybridRace
// CLEAN:     pixels read
// CLEAN-NOT: WARNING: HybridRace
//
// RUN: %hrace_cc -DRACE %s -o %t.race
// RUN: not %t.race %scale 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: env HRACE_OPTIONS=msm=hb not %t.race %scale 2>&1 | FileCheck %s --check-prefix=RACE
// RACE:      racy byte at [[ADDR:0x[0-9a-f]+]]
// RACE-NOT:  WARNING: HybridRace
// RACE:      WARNING: HybridRace: data race
// RACE:      {{Read|Write}} of size 1 at [[ADDR]]
// RACE-NOT:  WARNING: HybridRace
// RACE:      pixels read
// RACE-NOT:  WARNING: HybridRace

#include "hrace_test_rounds.h"

#include <stdio.h>
#include <string.h>

enum { kBytes = 4096, kRacy = 1001 };

unsigned char Pixels[kBytes];
unsigned char Mine[2][kBytes];
long Sums[2];

static void ReadPixels(long Me, long R) {
  for (int I = (int)((R + Me) % 3); I + 3 <= kBytes; I += 3) {
    Sums[Me] += Pixels[I] + Pixels[I + 1] + Pixels[I + 2];
    Mine[Me][I] = Mine[Me][I + 1] = Mine[Me][I + 2] = (unsigned char)R;
    // A new segment every few pixels, at a different pixel in each round
    // and thread: neighbouring bytes are read in different segments.
    if ((I / 3 + R + Me) % 5 == 0)
      new_own_segment();
  }
#ifdef RACE
  if (Me == 1 && R == 0)
    Pixels[kRacy] = 7;
#endif
}

static void WritePixels(long Me, long R) {
  if ((R & 1) == Me)
    memset(Pixels, (int)R, kBytes);
}

int main(int Argc, char **Argv) {
  printf("racy byte at %p\n", (void *)&Pixels[kRacy]);
  fflush(stdout);
  memset(Pixels, 1, kBytes);
  run_two_thread_rounds(Argc > 1 && !strcmp(Argv[1], "full") ? 2000 : 100,
                        ReadPixels, WritePixels);
  printf("pixels read\n");
  return 0;
}
