// Under ndr=1, thread after thread reads one table and is joined (short:
// 200 threads; full: 2,000): the resident set after all of them stays
// within twice the one after the first tenth (read from /proc/self/status;
// no timing is involved), and nothing is reported (each reader is ordered
// after main's writes and before the next reader).
//
// A finished thread's epoch variables stay in the table's histories, where
// its writes and reads are still checked against other threads'; each
// history holds a bounded number, the oldest checked going first, or it
// would grow with the threads (before the bound: 23 MB after 20 threads,
// 162 MB after 200).
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     RSS flat
// CHECK-NOT: WARNING: HybridRace

#include "hrace_test_rss.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { kWords = 8192 };
static long Table[kWords];

static void *Reader(void *Arg) {
  long S = 0;
  for (int I = 0; I < kWords; I++)
    S += Table[I];
  return (void *)S;
}

static void Run(void) {
  pthread_t T;
  pthread_create(&T, NULL, Reader, NULL);
  pthread_join(T, NULL);
}

int main(int Argc, char **Argv) {
  long Threads = Argc > 1 && !strcmp(Argv[1], "full") ? 2000 : 200;
  for (int I = 0; I < kWords; I++)
    Table[I] = I;
  long T = 0;
  for (; T < Threads / 10; T++)
    Run();
  long Early = resident_kb();
  for (; T < Threads; T++)
    Run();
  long Late = resident_kb();
  printf("RSS after a tenth: %ld kB, after all: %ld kB\n", Early, Late);
  printf("%s\n", Late <= 2 * Early ? "RSS flat" : "RSS grew");
  return 0;
}
