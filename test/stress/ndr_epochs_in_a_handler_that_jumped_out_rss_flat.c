// Under ndr=1, a thread whose signal handler jumps out (siglongjmp) stays
// in a handler for the checker, so its ended epochs' checks never run. It
// then reads a 4 KiB table in epoch after epoch (each ended by an atomic
// release; short: 5,000; full: 50,000): the resident set after all of
// them stays within twice the one after the first tenth (read from
// /proc/self/status; no timing is involved), and nothing is reported (no
// other thread runs).
//
// Epoch variables whose checks wait are kept in their histories, up to 8
// more than ndr_history per thread; past that one of them goes unchecked.
// Without that bound every epoch kept one per line of the table for good,
// and each new one walked all of them.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     RSS flat
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_rss.h"
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

enum { kWords = 512 };
static long Table[kWords];
static sigjmp_buf Out;
// Not static: the optimiser removes stores to a static nobody reads.
atomic_int EpochEnd;

static void JumpOut(int Signal) { siglongjmp(Out, Signal); }

static long ReadTable(void) {
  long S = 0;
  for (int I = 0; I < kWords; I++)
    S += Table[I];
  atomic_store_explicit(&EpochEnd, 1, memory_order_release);
  return S;
}

int main(int Argc, char **Argv) {
  long Epochs = Argc > 1 && !strcmp(Argv[1], "full") ? 50000 : 5000;
  for (int I = 0; I < kWords; I++)
    Table[I] = I;
  signal(SIGUSR1, JumpOut);
  if (!sigsetjmp(Out, 1))
    raise(SIGUSR1);
  long Sum = 0, E = 0;
  for (; E < Epochs / 10; E++)
    Sum += ReadTable();
  long Early = resident_kb();
  for (; E < Epochs; E++)
    Sum += ReadTable();
  long Late = resident_kb();
  printf("sum %ld; RSS after a tenth: %ld kB, after all: %ld kB\n", Sum,
         Early, Late);
  printf("%s\n", Late <= 2 * Early ? "RSS flat" : "RSS grew");
  return 0;
}
