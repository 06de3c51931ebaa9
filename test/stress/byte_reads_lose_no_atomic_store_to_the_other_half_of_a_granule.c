// A granule holds two variables: four bytes read one at a time and a word
// stored atomically. Each round the main thread writes both plainly
// (holding no lock); then, ordered after it by a barrier, one thread reads
// the bytes one by one while another stores every word atomically, at the
// same moment. An atomic store ordered after a plain write leaves the word
// atomic and forgets the write. The storer then sets a flag under a mutex,
// and a fourth thread, which polls the flag under the mutex and learns
// nothing else of the round (precise=0: no write/read relation orders it),
// stores every word atomically. Nothing races, so a report is false.
// Each byte read moves the byte from the main thread's cell to the
// reader's, a change of both cells of the granule. Only where every byte of
// the granule is New or the thread's own in its current segment may that
// change be one plain store (runtime/hrace_access.h, PairStoredPlainly):
// here the reader's store would bring the forgotten write back over the
// concurrent atomic store, and the poller's stores would meet it.
// 3,000 rounds (short: 200) over 1,024 granules.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=precise=0 %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=precise=0:msm=long %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     byte rounds done
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_polled_rounds.h"

#include <stdio.h>
#include <string.h>

enum { kGranules = 1024 };

struct Granule {
  unsigned char Bytes[4];
  unsigned Word;
} __attribute__((aligned(8)));

struct Granule Data[kGranules];
long Sum;

static void Write(long R) {
  for (int I = 0; I < kGranules; I++) {
    memset(Data[I].Bytes, (int)R, sizeof(Data[I].Bytes));
    Data[I].Word = (unsigned)(R + I);
  }
}

static void ReadBytes(long R) {
  (void)R;
  for (int I = 0; I < kGranules; I++)
    for (int B = 0; B < 4; B++)
      Sum += Data[I].Bytes[B];
}

static void StoreWords(long R) {
  for (int I = 0; I < kGranules; I++)
    __atomic_store_n(&Data[I].Word, (unsigned)R, __ATOMIC_RELAXED);
}

static void StoreWordsAfterThePoll(long R) {
  for (int I = 0; I < kGranules; I++)
    __atomic_store_n(&Data[I].Word, (unsigned)-R, __ATOMIC_RELAXED);
}

int main(int Argc, char **Argv) {
  struct PolledRounds Run = {Argc > 1 && !strcmp(Argv[1], "full") ? 3000 : 200,
                             Write,
                             {ReadBytes, StoreWords},
                             StoreWordsAfterThePoll};
  run_polled_rounds(&Run);
  printf("byte rounds done\n");
  return 0;
}
