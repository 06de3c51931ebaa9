// Two distinct races. By default both are reported, the program finishes
// and the count says 2. With halt_on_error=1 the process exits with the
// exitcode right after the first report: no second report, no more program
// output, no final count.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: env HRACE_OPTIONS=msm=hb:halt_on_error=1 not %t 2>&1 | FileCheck %s --check-prefix=HALT
// RUN: env HRACE_OPTIONS=msm=hb:halt_on_error=1 sh -c '%t >/dev/null 2>&1; echo "exit=$?"' | FileCheck %s --check-prefix=STATUS
// STATUS: exit=66

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int First, Second;
static int ThreadWrote;

static void *Thread1(void *Arg) {
  First = 1;
  Second = 1;
  invisible_signal(&ThreadWrote);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  invisible_wait(&ThreadWrote);
  First = 2;
  // ALL:      WARNING: HybridRace: data race
  // ALL:        Location is global 'First'
  // HALT:     WARNING: HybridRace: data race
  // HALT:       Location is global 'First'
  // HALT:     SUMMARY: HybridRace: data race {{.*}}option_halt_on_error.c:[[@LINE-5]] in main
  // HALT-NEXT: ==================
  // HALT-NOT: {{.}}
  Second = 2;
  // ALL:      WARNING: HybridRace: data race
  // ALL:        Location is global 'Second'
  // ALL:      SUMMARY: HybridRace: data race {{.*}}option_halt_on_error.c:[[@LINE-3]] in main
  fprintf(stderr, "main continues\n");
  // ALL:      main continues
  // ALL:      HybridRace: reported 2 warnings
  pthread_join(T, NULL);
  return 0;
}
