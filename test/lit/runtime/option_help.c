// help=1 prints the option table (every option with its default and a
// description) to stderr, then the program runs normally and keeps its exit
// status.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb:help=1 %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb:help=1 %t 2>/dev/null | FileCheck %s --check-prefix=STDOUT

// CHECK:      HybridRace options (HRACE_OPTIONS=key=value:key=value):
// CHECK-NEXT:   msm default {{[a-z]+}}
// CHECK-NEXT:     memory state machine: {{.*}}hb (pure happens-before{{.*}}
// CHECK:        exitcode default 66
// CHECK:        halt_on_error default 0
// CHECK:        log_path default stderr
// CHECK:        symbolize default 1
// CHECK:        external_symbolizer_path default
// CHECK:        verbosity default 0
// CHECK:        help default 0
// CHECK-NEXT:     print this option table and continue
// CHECK:      main ran
// CHECK-NOT:  HybridRace

// STDOUT-NOT: HybridRace options
// STDOUT:     main ran

#include <stdio.h>

int main(void) {
  printf("main ran\n");
  return 0;
}
