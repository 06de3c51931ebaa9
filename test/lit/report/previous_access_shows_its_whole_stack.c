// The previous access of a race is reported with its whole call stack, not
// just its own frame: each recorded access keeps the depot id of the stack
// it was called from. history_depth caps the frames shown (default 16);
// history_depth=0 keeps no call stacks, and shows the access's own frame.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,FULL
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,FULL
// RUN: env HRACE_OPTIONS=history_depth=2 not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: env HRACE_OPTIONS=history_depth=0 not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>

int Shared;
static int FirstWrote;

__attribute__((noinline)) static void Store(int V) { Shared = V; }
__attribute__((noinline)) static void Update(int V) { Store(V + 1); }
__attribute__((noinline)) static void Refresh(int V) { Update(V * 2); }

// Calls after the write and before the race change the thread's stack: the
// recorded stack is the one of the write, not the one at the report.
__attribute__((noinline)) static int Unrelated(int V) { return V + 3; }

static void *Writer(void *Arg) {
  Refresh(1);
  Unrelated(2);
  invisible_signal(&FirstWrote);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  invisible_wait(&FirstWrote);
  Shared = 5;
  pthread_join(T, NULL);
  return 0;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{.*}} by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}previous_access_shows_its_whole_stack.c:37
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Store {{.*}}previous_access_shows_its_whole_stack.c:18
// FULL-NEXT:      #1 Update {{.*}}previous_access_shows_its_whole_stack.c:19
// FULL-NEXT:      #2 Refresh {{.*}}previous_access_shows_its_whole_stack.c:20
// FULL-NEXT:      #3 Writer {{.*}}previous_access_shows_its_whole_stack.c:27
// TWO-NEXT:       #1 Update {{.*}}previous_access_shows_its_whole_stack.c:19
// With history_depth=0 the cause follows the access's own frame.
// CHECK-NEXT:   Detected by
