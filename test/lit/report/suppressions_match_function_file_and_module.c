// suppressions=FILE silences a race whose stacks (or global variable) match
// a race: line: the pattern matches a function, source file or module name
// (or the global's name) anywhere in it,
// '*' any run of characters, '?' one, '^' and '$' anchor it. race_top only
// looks at each access's own frame. A silenced race is not counted: the
// exit status is 0. print_suppressions=1 says at exit what matched.
//
// RUN: %hrace_cc %s -o %t
// RUN: echo 'race:BumpShared' > %t.function
// RUN: env HRACE_OPTIONS=suppressions=%t.function:print_suppressions=1 %t 2>&1 | FileCheck %s --check-prefix=QUIET --implicit-check-not=WARNING
// QUIET:      HybridRace: matched 1 suppression (pid={{[0-9]+}}):
// QUIET-NEXT:   1 race:BumpShared
//
// Comments, blank lines and spaces around KIND and PATTERN are allowed.
// RUN: echo '# known race, issue 123' > %t.wild
// RUN: echo '' >> %t.wild
// RUN: echo '  race : Bump*ed ' >> %t.wild
// RUN: env HRACE_OPTIONS=suppressions=%t.wild %t 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty --implicit-check-not=WARNING
// SILENT-NOT: HybridRace
// RUN: echo 'race:^Bump?hared$' > %t.anchored
// RUN: env HRACE_OPTIONS=suppressions=%t.anchored %t 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// A caller's frame matches race: (any frame of either stack) ...
// RUN: echo 'race:Caller' > %t.caller
// RUN: env HRACE_OPTIONS=suppressions=%t.caller %t 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// ... but not race_top:, which only sees the racing accesses' own frames.
// RUN: echo 'race_top:Caller' > %t.top-caller
// RUN: env HRACE_OPTIONS=suppressions=%t.top-caller not %t 2>&1 | FileCheck %s --check-prefix=REPORTED
// RUN: echo 'race_top:BumpShared' > %t.top
// RUN: env HRACE_OPTIONS=suppressions=%t.top %t 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// The global variable raced on, by name (race:, not race_top:).
// RUN: echo 'race:^Tally$' > %t.global
// RUN: env HRACE_OPTIONS=suppressions=%t.global %t 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// RUN: echo 'race_top:^Tally$' > %t.top-global
// RUN: env HRACE_OPTIONS=suppressions=%t.top-global not %t 2>&1 | FileCheck %s --check-prefix=REPORTED
// The source file's name, and the module (the executable) by its path.
// RUN: echo 'race:suppressions_match_function_file_and_*.c' > %t.file
// RUN: env HRACE_OPTIONS=suppressions=%t.file %t 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
// RUN: echo 'race:function_file_and_module.c.tmp$' > %t.module
// RUN: env HRACE_OPTIONS=suppressions=%t.module %t 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
//
// A pattern that matches nothing, an anchor that does not hold, or a
// suppression of another kind leaves the race reported.
// RUN: echo 'race:NoSuchFunction' > %t.none
// RUN: echo 'race:^Shared' >> %t.none
// RUN: echo 'deadlock:BumpShared' >> %t.none
// RUN: echo 'thread:BumpShared' >> %t.none
// RUN: env HRACE_OPTIONS=suppressions=%t.none:print_suppressions=1 not %t 2>&1 | FileCheck %s --check-prefixes=REPORTED,NONE
// REPORTED: WARNING: HybridRace: data race
// REPORTED: SUMMARY: HybridRace: data race {{.*}}suppressions_match_function_file_and_module.c:{{[0-9]+}} in BumpShared
// NONE:     HybridRace: matched 0 suppressions (pid={{[0-9]+}}):
// NONE-NEXT: HybridRace: reported 1 warning

#include "hrace_test_sync.h"
#include <pthread.h>

int Tally;
static int FirstDone;

__attribute__((noinline)) static void BumpShared(void) { Tally++; }
__attribute__((noinline)) static void Caller(void) { BumpShared(); }

static void *Worker(void *Arg) {
  Caller();
  invisible_signal(&FirstDone);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  invisible_wait(&FirstDone);
  BumpShared();
  pthread_join(T, NULL);
  return 0;
}
