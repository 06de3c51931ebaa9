// verbosity=1 makes the runtime say that it started and with which state
// machine; the default (0) prints nothing for a race-free program.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb:verbosity=1 %t 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s --check-prefix=QUIET

// VERBOSE:     HybridRace: initialised (msm=hb)
// VERBOSE:     main ran
// QUIET-NOT:   HybridRace
// QUIET:       main ran
// QUIET-NOT:   HybridRace

#include <stdio.h>

int main(void) {
  printf("main ran\n");
  return 0;
}
