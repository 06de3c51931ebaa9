// Two fields read on one line are one read of their run of bytes (the
// pass coalesces them: ndr_reads_of_one_run_are_one_call.c), checked as
// the two reads would be: A reads Dollar and Yen in one expression, and
// B's write of Yen, parallel to it, makes the read of Yen
// non-deterministic; the read of Dollar, which only A writes, is not. B
// starts only after A's writes (a semaphore), so they happen before B's.
// The report names the field: 4 bytes at Yen, at the run's line. The
// correlations A made with Yen are found for the run, not only for its
// first address: `Yen = Euro * 107` (vertical) and Dollar, then Yen,
// written in a row (parental). The struct is aligned to a cache line, so
// both fields lie in one of the checker's 64-byte variables. The ordinary
// race checker reports the race too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include "../Inputs/hrace_test_two_threads.h"

#include <semaphore.h>
#include <stdio.h>

struct Account {
  int Dollar, Yen, Euro;
} Acc __attribute__((aligned(64)));
static sem_t AConverted;

static void *ThreadA(void *Arg) {
  Acc.Dollar = 7;
  Acc.Yen = Acc.Euro * 107;
  sem_post(&AConverted);
  long Total = Acc.Dollar + Acc.Yen;
  return (void *)Total;
}

static void *ThreadB(void *Arg) {
  sem_wait(&AConverted);
  Acc.Yen = 1;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[YEN:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 ThreadA {{.*}}fields_read_on_one_line_are_each_checked.c:[[@LINE-11]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[YEN]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}fields_read_on_one_line_are_each_checked.c:[[@LINE-8]]
// CHECK-NEXT:   Violated correlations:
// CHECK-NEXT:     vertical: 'Acc.Euro' -> 'Acc.Yen' (fields_read_on_one_line_are_each_checked.c:[[@LINE-18]])
// CHECK-NEXT:     parental: 'Acc.Dollar' <-> 'Acc.Yen' (fields_read_on_one_line_are_each_checked.c:[[@LINE-19]])
// CHECK-NEXT:   Location is global 'Acc' of size 12
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}fields_read_on_one_line_are_each_checked.c:[[@LINE-19]] in ThreadA
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  sem_init(&AConverted, 0, 0);
  run_two_threads(ThreadA, ThreadB);
  printf("done\n");
  sem_destroy(&AConverted);
  return 0;
}
