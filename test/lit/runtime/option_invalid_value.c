// A bad option value stops the program before main: exactly one line on
// stderr naming the value, the option and the accepted values, and exit
// status 2 (not the race exitcode). Checked for an enum, an int and a bool;
// an exit code that would wrap (256 is 0 to the shell: a racy test would
// pass); and an empty log_path (the reports would go to a hidden ./.PID).
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=fast not %t 2>&1 | FileCheck %s --check-prefix=MSM
// RUN: env HRACE_OPTIONS=msm=fast not %t 2>&1 | count 1
// RUN: env HRACE_OPTIONS=msm=fast sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=STATUS
// RUN: env HRACE_OPTIONS=msm=hb:exitcode=abc not %t 2>&1 | FileCheck %s --check-prefix=INT
// RUN: env HRACE_OPTIONS=msm=hb:halt_on_error=2 not %t 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: env HRACE_OPTIONS=exitcode=256 sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: env HRACE_OPTIONS=symbolizer_timeout=0 not %t 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: env HRACE_OPTIONS=log_path= sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=EMPTY

// MSM:  {{^}}HybridRace: invalid value 'fast' for option 'msm' in HRACE_OPTIONS (accepted: {{.*}}hb{{.*}}){{$}}
// STATUS-NOT: main ran
// STATUS: HybridRace: invalid value 'fast' for option 'msm'
// STATUS-NEXT: exit=2
// INT:  {{^}}HybridRace: invalid value 'abc' for option 'exitcode' in HRACE_OPTIONS (accepted: an integer from 0 to 255){{$}}
// BOOL: {{^}}HybridRace: invalid value '2' for option 'halt_on_error' in HRACE_OPTIONS (accepted: 0, 1, true, false){{$}}
// TIMEOUT: {{^}}HybridRace: invalid value '0' for option 'symbolizer_timeout' in HRACE_OPTIONS (accepted: an integer from 1 to 3600){{$}}
// WRAP-NOT: main ran
// WRAP: {{^}}HybridRace: invalid value '256' for option 'exitcode' in HRACE_OPTIONS (accepted: an integer from 0 to 255){{$}}
// WRAP-NEXT: exit=2
// EMPTY-NOT: main ran
// EMPTY: {{^}}HybridRace: invalid value '' for option 'log_path' in HRACE_OPTIONS (accepted: a non-empty string){{$}}
// EMPTY-NEXT: exit=2

#include <stdio.h>

int main(void) {
  printf("main ran\n");
  return 0;
}
