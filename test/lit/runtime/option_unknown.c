// An unknown option name, or an option written without "=value", stops the
// program before main with one line on stderr (for an unknown name, the
// list of known options) and exit status 2.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb:foo=1 not %t 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: env HRACE_OPTIONS=msm=hb:foo=1 not %t 2>&1 | count 1
// RUN: env HRACE_OPTIONS=msm=hb:foo=1 sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=STATUS
// RUN: env HRACE_OPTIONS=msm=hb:halt_on_error not %t 2>&1 | FileCheck %s --check-prefix=NOVALUE
// RUN: env HRACE_OPTIONS=msm=hb:halt_on_error sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=STATUS

// UNKNOWN: {{^}}HybridRace: unknown option 'foo' in HRACE_OPTIONS (known: msm {{.*}}exitcode halt_on_error log_path history_depth suppressions print_suppressions report_format report_path strip_path_prefix symbolize external_symbolizer_path symbolizer_timeout verbosity detect_deadlocks report_misuse report_thread_leaks report_signal_unsafe ndr ndr_history ndr_sweep_mb help){{$}}
// NOVALUE: {{^}}HybridRace: option 'halt_on_error' in HRACE_OPTIONS has no value (write halt_on_error=VALUE){{$}}
// STATUS-NOT: main ran
// STATUS:     exit=2

#include <stdio.h>

int main(void) {
  printf("main ran\n");
  return 0;
}
