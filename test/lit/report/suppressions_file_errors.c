// A suppressions file that cannot be read, or a line that is not
// KIND:PATTERN with a known KIND, stops the program before main with one
// line naming the file, the line and what is accepted, and exit status 2
// (as a bad HRACE_OPTIONS value does): a typo never silently lets reports
// through or hides them.
//
// RUN: %hrace_cc %s -o %t
// RUN: echo 'race:Fine' > %t.kind
// RUN: echo '# a comment' >> %t.kind
// RUN: echo 'rcae:Typo' >> %t.kind
// RUN: env HRACE_OPTIONS=suppressions=%t.kind sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefixes=BADKIND,STATUS
// BADKIND: {{^}}HybridRace: suppressions file '{{.*}}.kind' line 3: unknown kind 'rcae' (expected KIND:PATTERN, KIND one of: race, race_top, thread, mutex, deadlock, signal, misuse, called_from_lib){{$}}
//
// RUN: echo 'BumpShared' > %t.colon
// RUN: env HRACE_OPTIONS=suppressions=%t.colon sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefixes=COLON,STATUS
// COLON: {{^}}HybridRace: suppressions file '{{.*}}.colon' line 1: no ':' in 'BumpShared' (expected KIND:PATTERN, KIND one of: {{.*}}){{$}}
//
// RUN: echo 'race:' > %t.empty
// RUN: env HRACE_OPTIONS=suppressions=%t.empty sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefixes=EMPTY,STATUS
// EMPTY: {{^}}HybridRace: suppressions file '{{.*}}.empty' line 1: empty pattern for kind 'race'
//
// RUN: printf 'race:Fine\nrace:Hid\0den\n' > %t.nul
// RUN: env HRACE_OPTIONS=suppressions=%t.nul sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefixes=NUL,STATUS
// NUL: {{^}}HybridRace: suppressions file '{{.*}}.nul' line 2: a NUL byte in 'race:Hid'
//
// RUN: env HRACE_OPTIONS=suppressions=%t.no-such-file sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefixes=MISSING,STATUS
// MISSING: {{^}}HybridRace: cannot read suppressions file '{{.*}}.no-such-file': no such file or not readable{{$}}
//
// STATUS-NOT: main ran
// STATUS:     exit=2

#include <stdio.h>

int main(void) {
  printf("main ran\n");
  return 0;
}
