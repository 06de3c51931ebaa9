// report_format=json: a non-deterministic read is one object of kind
// "non-deterministic-read" whose sections keep what the text shows: the
// read, the dependencies with their accesses and stacks, and the violated
// correlations.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env HRACE_OPTIONS=ndr=1:report_format=json:report_path=%t.d/run not %t
// RUN: python3 -m json.tool %t.d/run.*.json | FileCheck %s
// CHECK:      "kind": "non-deterministic-read",
// CHECK-NEXT: "title": "non-deterministic read",
// CHECK:      "text": "Read of size 4 at 0x{{[0-9a-f]+}} by thread T1 (locks held: {M1})"
// CHECK:      "text": "has 2 write dependencies:"
// CHECK:      "text": "Write of size 4 at 0x{{[0-9a-f]+}} by thread T2 (locks held: {M1}), parallel to the read"
// CHECK:      "kind": "write",
// CHECK:      "function": "Deposit",
// CHECK:      "text": "Write of size 4 at 0x{{[0-9a-f]+}} by thread T1 (locks held: {M1})"
// CHECK:      "function": "Convert",
// CHECK:      "text": "Violated correlations:"
// CHECK:      "text": "vertical: 'Euro' -> 'Yen' (json_report_keeps_dependencies_and_correlations.c:33)"

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

volatile int Euro, Yen;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int Converted, Deposited;

static void *Convert(void *Arg) {
  pthread_mutex_lock(&M);
  Euro = 300;
  Yen = Euro * 107;
  pthread_mutex_unlock(&M);
  invisible_signal(&Converted);
  invisible_wait(&Deposited);
  pthread_mutex_lock(&M);
  int Printed = Euro;
  pthread_mutex_unlock(&M);
  printf("%d Euro\n", Printed);
  return Arg;
}

static void *Deposit(void *Arg) {
  invisible_wait(&Converted);
  pthread_mutex_lock(&M);
  Euro = 500;
  pthread_mutex_unlock(&M);
  invisible_signal(&Deposited);
  return Arg;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, Convert, NULL);
  pthread_create(&B, NULL, Deposit, NULL);
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  return 0;
}
