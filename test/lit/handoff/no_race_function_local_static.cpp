// A function-local static (C++11 "magic static"): the first caller of
// GetWidget constructs the Widget inside __cxa_guard_acquire/release; every
// later caller sees the guard set and uses the fields without any lock. The
// guard orders the constructor's writes before every later user, in all
// machines. "sequential": T2 calls GetWidget after T1 has returned from it
// (the guard's fast path: an inline acquire load of the guard byte).
// "slow": T2 calls it while T1 is still constructing, and blocks in
// __cxa_guard_acquire until T1's __cxa_guard_release. With
// -static-libstdc++ there is no shared libstdc++ to find the real guard
// functions in, and the runtime keeps the guards itself.
//
// RUN: %hrace_cxx -O0 %s -o %t.O0 && %hrace_cxx -O2 %s -o %t.O2
// RUN: %t.O0 sequential 2>&1 | FileCheck %s
// RUN: %t.O2 sequential 2>&1 | FileCheck %s
// RUN: %t.O0 slow 2>&1 | FileCheck %s
// RUN: %t.O2 slow 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O0 sequential 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 slow 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 sequential 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 sequential 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 slow 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 slow 2>&1 | FileCheck %s
// RUN: %hrace_cxx -O2 -static-libstdc++ %s -o %t.static
// RUN: %t.static sequential 2>&1 | FileCheck %s
// RUN: %t.static slow 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.static slow 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     T1 7 8 9
// CHECK:     T2 7 8 9

#include "hrace_test_sync.h"
#include <cstdio>
#include <cstring>
#include <ctime>
#include <pthread.h>

static bool Slow;
static int ConstructionStarted, T1Returned, T1Printed;

struct Widget {
  explicit Widget(int V) {
    if (Slow) {
      // Ordering only: T2 may call GetWidget now; sleep so that it blocks
      // in __cxa_guard_acquire while the fields are being written.
      invisible_signal(&ConstructionStarted);
      struct timespec Ts = {0, 100 * 1000 * 1000};
      nanosleep(&Ts, nullptr);
    }
    A = V;
    B = V + 1;
    C = V + 2;
  }
  int A, B, C;
};

__attribute__((noinline)) Widget &GetWidget() {
  static Widget W(7);
  return W;
}

static void *Thread1(void *) {
  Widget &W = GetWidget();
  invisible_signal(&T1Returned);
  std::printf("T1 %d %d %d\n", W.A, W.B, W.C);
  invisible_signal(&T1Printed);
  return nullptr;
}

static void *Thread2(void *) {
  // Ordering only: decides whether T2 takes the guard's fast path
  // ("sequential") or blocks in it ("slow"); the guard then orders T2.
  invisible_wait(Slow ? &ConstructionStarted : &T1Returned);
  Widget &W = GetWidget();
  int A = W.A, B = W.B, C = W.C;
  invisible_wait(&T1Printed); // Ordering only: keeps the output in order.
  std::printf("T2 %d %d %d\n", A, B, C);
  return nullptr;
}

int main(int Argc, char **Argv) {
  Slow = Argc > 1 && !std::strcmp(Argv[1], "slow");
  pthread_t A, B;
  pthread_create(&A, nullptr, Thread1, nullptr);
  pthread_create(&B, nullptr, Thread2, nullptr);
  pthread_join(A, nullptr);
  pthread_join(B, nullptr);
  return 0;
}
