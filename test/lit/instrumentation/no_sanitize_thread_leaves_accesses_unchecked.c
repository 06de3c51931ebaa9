// __attribute__((no_sanitize("thread"))) leaves a function's memory
// accesses unchecked, as ThreadSanitizer does: the racy write in
// IgnoredWrite is not reported, the one in CheckedWrite is. The function's
// atomics still synchronise (its release store orders the worker's write
// of Data before main's, so nothing is reported on Data), and its frame
// stays on the stack of what it calls. clang warns about
// no_sanitize("hybrid-race") (a sanitizer it does not know) and ignores it:
// no_sanitize("thread") is the spelling clang accepts.
//
// RUN: %hrace_cc -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// CHECK-NOT:  in IgnoredWrite
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{.*}} by thread T0
// CHECK-NEXT:     #0 CheckedWrite {{.*}}no_sanitize_thread_leaves_accesses_unchecked.c:[[#CHECKED:]]
// CHECK-NEXT:     #1 CallFromIgnored {{.*}}no_sanitize_thread_leaves_accesses_unchecked.c
// CHECK-NEXT:     #2 main
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1
// CHECK-NEXT:     #0 CheckedWrite {{.*}}no_sanitize_thread_leaves_accesses_unchecked.c:[[#CHECKED]]
// CHECK:      SUMMARY: HybridRace: data race {{.*}} in CheckedWrite
// CHECK-NOT:  SUMMARY
// CHECK:      HybridRace: reported 1 warning

#include "hrace_test_sync.h"
#include <pthread.h>

int Ignored, Checked, Data, Ready;
static int FirstDone;

__attribute__((noinline, no_sanitize("thread"))) static void
IgnoredWrite(int V) {
  Ignored = V;
}

__attribute__((noinline)) static void CheckedWrite(int V) { Checked = V; }

__attribute__((noinline, no_sanitize("thread"))) static void
CallFromIgnored(int V) {
  CheckedWrite(V);
}

__attribute__((noinline, no_sanitize("thread"))) static void SetReady(void) {
  __atomic_store_n(&Ready, 1, __ATOMIC_RELEASE);
}

static void *Worker(void *Arg) {
  IgnoredWrite(1);
  CheckedWrite(1);
  Data = 1;
  SetReady();
  invisible_signal(&FirstDone);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  invisible_wait(&FirstDone);
  IgnoredWrite(2);
  CallFromIgnored(2);
  while (!__atomic_load_n(&Ready, __ATOMIC_ACQUIRE))
    ;
  Data = 2;
  pthread_join(T, NULL);
  return 0;
}
