// End to end: two processes of one program (as a ctest run starts them)
// each write their JSON reports; tools/hrace-report merges them into one
// distinct race seen twice, and exits with 1 because there were reports.
//
// RUN: %hrace_cc %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env HRACE_OPTIONS=report_format=json:report_path=%t.d/run not %t
// RUN: env HRACE_OPTIONS=report_format=json:report_path=%t.d/run not %t
// RUN: not python3 %hrace_source/tools/hrace-report %t.d | FileCheck %s
// CHECK:      # HybridRace report
// CHECK:      2 reports, 1 distinct, from 2 processes.
// CHECK:      | `merge_tool_on_two_processes_output.c:[[#LINE:]]` | data-race | 1 | 2 |
// CHECK:      ### 1. data-race at merge\_tool\_on\_two\_processes\_output.c:[[#LINE]]
// CHECK:      2 occurrences in 2 processes
//
// A clean run leaves no file: the tool calls that a clean run.
// RUN: rm -rf %t.clean && mkdir %t.clean
// RUN: env HRACE_OPTIONS=report_format=json:report_path=%t.clean/run %t clean
// RUN: python3 %hrace_source/tools/hrace-report %t.clean 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN: 0 reports, 0 distinct, from 0 processes.

#include "hrace_test_sync.h"
#include <pthread.h>

int Hits;
static int FirstHit;

static void *Worker(void *Arg) {
  Hits++;
  invisible_signal(&FirstHit);
  return Arg;
}

int main(int Argc, char **Argv) {
  if (Argc > 1)
    return 0;
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  invisible_wait(&FirstHit);
  Hits++;
  pthread_join(T, NULL);
  return 0;
}
