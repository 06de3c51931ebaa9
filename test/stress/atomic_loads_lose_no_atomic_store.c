// An atomic store that follows a plain write in happens-before order
// leaves the location atomic and forgets the write: a later atomic access
// has nothing to be ordered after. Each round, the main thread writes every
// word plainly (holding no lock); then, ordered after it by a barrier, one
// thread loads every word atomically while another stores every word
// atomically, at the same moment. The storer then sets a flag under a
// mutex, and a fourth thread, which polls the flag under the mutex and
// learns nothing else of the round (precise=0: no write/read relation
// orders it), stores every word atomically. Locks order the plain write
// before those stores (write, barrier, the storer's unlock, the poller's
// lock), and atomic accesses never race with each other, so a report is
// false. Under msm=short a change of a cell that keeps no locked access
// may be a plain store (runtime/hrace_access.h, StoredPlainly), but not
// an atomic access's: the load's plain store would bring the forgotten
// write back over the atomic store, and the poller's stores would meet it.
// 4,000 rounds (short: 300) over 1,024 words.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=precise=0 %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=precise=0:msm=long %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     atomic rounds done
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_polled_rounds.h"

#include <stdio.h>
#include <string.h>

enum { kWords = 1024 };

long Data[kWords];
long Sum;

static void Write(long R) {
  for (int I = 0; I < kWords; I++)
    Data[I] = R + I;
}

static void Load(long R) {
  (void)R;
  for (int I = 0; I < kWords; I++)
    Sum += __atomic_load_n(&Data[I], __ATOMIC_RELAXED);
}

static void Store(long R) {
  for (int I = 0; I < kWords; I++)
    __atomic_store_n(&Data[I], R, __ATOMIC_RELAXED);
}

static void StoreAfterThePoll(long R) {
  for (int I = 0; I < kWords; I++)
    __atomic_store_n(&Data[I], -R, __ATOMIC_RELAXED);
}

int main(int Argc, char **Argv) {
  struct PolledRounds Run = {Argc > 1 && !strcmp(Argv[1], "full") ? 4000 : 300,
                             Write,
                             {Load, Store},
                             StoreAfterThePoll};
  run_polled_rounds(&Run);
  printf("atomic rounds done\n");
  return 0;
}
