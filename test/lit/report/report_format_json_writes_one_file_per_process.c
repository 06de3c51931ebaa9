// report_format=json: each report is printed as text as usual and also
// kept; at exit the process writes report_path.PID.json, one object per
// report with its kind, the msm and cause, the location, and sections with
// the accesses (kind, size, address, atomic), their threads, locks and
// symbolised stacks. With halt_on_error=1 the file is written before the
// process stops at its first report.
//
// RUN: %hrace_cc %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env HRACE_OPTIONS=report_format=json:report_path=%t.d/run not %t 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: WARNING: HybridRace: data race
// TEXT: HybridRace: reported 1 warning
// RUN: python3 -m json.tool %t.d/run.*.json | FileCheck %s
//
// RUN: rm -rf %t.h && mkdir %t.h
// RUN: env HRACE_OPTIONS=report_format=json:report_path=%t.h/run:halt_on_error=1 not %t
// RUN: python3 -m json.tool %t.h/run.*.json | FileCheck %s
//
// CHECK:      "tool": {
// CHECK-NEXT:     "name": "HybridRace",
// CHECK-NEXT:     "version": "{{[0-9.]+}}"
// CHECK-NEXT: },
// CHECK-NEXT: "pid": {{[0-9]+}},
// CHECK-NEXT: "command": "{{.*}}report_format_json_writes_one_file_per_process.c.tmp",
// CHECK-NEXT: "reports_left_out": 0,
// CHECK-NEXT: "reports": [
// CHECK-NEXT:     {
// CHECK-NEXT:         "kind": "data-race",
// CHECK-NEXT:         "title": "data race",
// CHECK-NEXT:         "msm": "short",
// CHECK-NEXT:         "cause": "Detected by msm=short: {{.*}}",
// CHECK-NEXT:         "location": "Location is global 'Balance' of size 8 at {{.*}}",
// CHECK-NEXT:         "sections": [
// CHECK-NEXT:             {
// CHECK-NEXT:                 "role": "access",
// CHECK-NEXT:                 "text": "Write of size 8 at 0x{{[0-9a-f]+}} by thread T0 (locks held: {M1})",
// CHECK-NEXT:                 "thread": 0,
// CHECK-NEXT:                 "locks": [
// CHECK-NEXT:                     "M1"
// CHECK-NEXT:                 ],
// CHECK-NEXT:                 "access": {
// CHECK-NEXT:                     "kind": "write",
// CHECK-NEXT:                     "size": 8,
// CHECK-NEXT:                     "address": "0x{{[0-9a-f]+}}",
// CHECK-NEXT:                     "atomic": false
// CHECK-NEXT:                 },
// CHECK-NEXT:                 "stack": [
// CHECK-NEXT:                     {
// CHECK-NEXT:                         "function": "Deposit",
// CHECK-NEXT:                         "file": "{{.*}}report_format_json_writes_one_file_per_process.c",
// CHECK-NEXT:                         "line": [[#DEPOSIT:]],
// CHECK-NEXT:                         "column": {{[0-9]+}},
// CHECK-NEXT:                         "module": "{{.*}}report_format_json_writes_one_file_per_process.c.tmp",
// CHECK-NEXT:                         "offset": "0x{{[0-9a-f]+}}"
// CHECK-NEXT:                     },
// CHECK-NEXT:                     {
// CHECK-NEXT:                         "function": "main",
// CHECK:                  "role": "previous-access",
// CHECK-NEXT:             "text": "Previous write of size 8 at 0x{{[0-9a-f]+}} by thread T1 (locks held: none)",
// CHECK-NEXT:             "thread": 1,
// CHECK:                  "function": "Withdraw",
// CHECK:                  "function": "Worker",
// CHECK:                  "role": "thread",
// CHECK-NEXT:             "text": "Thread T0 (tid={{[0-9]+}}, running) is the main thread",
// CHECK-NEXT:             "thread": 0
// CHECK:                  "role": "thread",
// CHECK-NEXT:             "text": "Thread T1 (tid={{[0-9]+}}, {{running|finished}}) created by T0 at",
// CHECK-NEXT:             "thread": 1,
// CHECK-NEXT:             "stack": [
// CHECK:          "summary": {
// CHECK-NEXT:         "function": "Deposit",
// CHECK-NEXT:         "file": "{{.*}}report_format_json_writes_one_file_per_process.c",
// CHECK-NEXT:         "line": [[#DEPOSIT]],
// CHECK-NEXT:         "column": {{[0-9]+}}
// CHECK-NEXT:     }
// CHECK-NEXT: }
// CHECK-NEXT: ]
// CHECK-NEXT: }

#include "hrace_test_sync.h"
#include <pthread.h>

long Balance;
static int Withdrawn;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) static void Withdraw(long Amount) {
  Balance = -Amount;
}

__attribute__((noinline)) static void Deposit(long Amount) {
  pthread_mutex_lock(&M);
  Balance = Amount;
  pthread_mutex_unlock(&M);
}

static void *Worker(void *Arg) {
  Withdraw(10);
  invisible_signal(&Withdrawn);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  invisible_wait(&Withdrawn);
  Deposit(20);
  pthread_join(T, NULL);
  return 0;
}
