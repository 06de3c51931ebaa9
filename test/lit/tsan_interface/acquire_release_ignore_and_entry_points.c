// The rest of ThreadSanitizer's interface that programs call:
//  - __tsan_release / __tsan_acquire order what an invisible hand-off
//    would not ("ordered": silent in every machine; "unordered", the same
//    program without the two calls: reported);
//  - __tsan_ignore_thread_begin/end hide the thread's accesses in between;
//  - __tsan_write4 from code the compiler did not instrument is checked;
//  - fibers can be created, switched to and destroyed.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t ordered 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t ordered 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=long %t ordered 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not %t unordered 2>&1 | FileCheck %s --check-prefix=REPORTED
// RUN: %t ignored 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not %t hand-instrumented 2>&1 | FileCheck %s --check-prefix=HAND
// QUIET-NOT:  WARNING: HybridRace
// QUIET:      done
// REPORTED:   WARNING: HybridRace: data race
// REPORTED:   SUMMARY: HybridRace: data race {{.*}} in Reader
// HAND:       WARNING: HybridRace: data race
// HAND-NEXT:    Write of size 4 at {{.*}} by thread T2
// HAND-NEXT:      #0 Writer
// HAND:         Previous write of size 4 at {{.*}} by thread T1
// HAND-NEXT:      #0 HandInstrumentedWrite

#include "hrace_test_sync.h"
#include <pthread.h>
#include <sanitizer/tsan_interface.h>
#include <stdio.h>
#include <string.h>

// Not in <sanitizer/tsan_interface.h>: code that calls them declares them.
void __tsan_write4(void *Addr);
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);

static const char *Mode;
static int Published, Flag, FirstDone;
int Data;

static int Is(const char *M) { return !strcmp(Mode, M); }

// Not instrumented: only the explicit call tells the runtime of the write.
__attribute__((disable_sanitizer_instrumentation, noinline)) static void
HandInstrumentedWrite(int *P) {
  __tsan_write4(P);
  __atomic_store_n(P, 1, __ATOMIC_RELAXED);
}

static void *Publisher(void *Arg) {
  (void)Arg;
  if (Is("hand-instrumented")) {
    HandInstrumentedWrite(&Data);
  } else {
    Data = 42;
    if (Is("ordered"))
      __tsan_release(&Flag);
  }
  invisible_signal(&Published);
  return 0;
}

static void *Reader(void *Arg) {
  (void)Arg;
  // Ordering only: the write comes first.
  invisible_wait(&Published);
  if (Is("ordered"))
    __tsan_acquire(&Flag);
  if (Is("ignored"))
    __tsan_ignore_thread_begin();
  Data++;
  if (Is("ignored"))
    __tsan_ignore_thread_end();
  return 0;
}

static void *Writer(void *Arg) {
  (void)Arg;
  invisible_wait(&Published);
  Data = 7;
  return 0;
}

int main(int Argc, char **Argv) {
  Mode = Argc > 1 ? Argv[1] : "ordered";
  void *Main = __tsan_get_current_fiber();
  void *Fiber = __tsan_create_fiber(0);
  __tsan_set_fiber_name(Fiber, "fiber");
  __tsan_switch_to_fiber(Fiber, 0);
  __tsan_switch_to_fiber(Main, 0);
  __tsan_destroy_fiber(Fiber);
  pthread_t A, B;
  pthread_create(&A, 0, Publisher, 0);
  pthread_create(&B, 0, Is("hand-instrumented") ? Writer : Reader, 0);
  pthread_join(A, 0);
  pthread_join(B, 0);
  printf("done\n");
  return 0;
}
