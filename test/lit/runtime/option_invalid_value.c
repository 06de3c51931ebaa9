// A bad option value stops the program before main: exactly one line on
// stderr naming the value, the option and the accepted values, and exit
// status 2 (not the race exitcode). Checked for an enum, an int and a bool.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=fast not %t 2>&1 | FileCheck %s --check-prefix=MSM
// RUN: env HRACE_OPTIONS=msm=fast not %t 2>&1 | count 1
// RUN: env HRACE_OPTIONS=msm=fast sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=STATUS
// RUN: env HRACE_OPTIONS=msm=hb:exitcode=abc not %t 2>&1 | FileCheck %s --check-prefix=INT
// RUN: env HRACE_OPTIONS=msm=hb:halt_on_error=2 not %t 2>&1 | FileCheck %s --check-prefix=BOOL

// MSM:  {{^}}HybridRace: invalid value 'fast' for option 'msm' in HRACE_OPTIONS (accepted: {{.*}}hb{{.*}}){{$}}
// STATUS-NOT: main ran
// STATUS: HybridRace: invalid value 'fast' for option 'msm'
// STATUS-NEXT: exit=2
// INT:  {{^}}HybridRace: invalid value 'abc' for option 'exitcode' in HRACE_OPTIONS (accepted: an integer){{$}}
// BOOL: {{^}}HybridRace: invalid value '2' for option 'halt_on_error' in HRACE_OPTIONS (accepted: 0, 1, true, false){{$}}

#include <stdio.h>

int main(void) {
  printf("main ran\n");
  return 0;
}
