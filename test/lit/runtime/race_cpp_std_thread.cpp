// A C++ program: a lambda run by std::thread increments a counter that main
// wrote after starting the thread. std::thread goes through the intercepted
// pthread_create, so the thread is T1, created by T0, and the race is
// reported with the lambda's frame; join() does not order the earlier write.
//
// RUN: %hrace_cxx %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <cstdio>
#include <thread>

static int Counter;
static int MainWrote;

int main() {
  std::thread T([] {
    invisible_wait(&MainWrote);
    Counter++;
  });
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 main::$_0::operator()() const {{.*}}race_cpp_std_thread.cpp:[[#LAMBDA:@LINE-4]]
  Counter = 5;
  // CHECK:        Previous write of size 4 at [[ADDR]] by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_cpp_std_thread.cpp:[[@LINE-2]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is global 'Counter' of size 4 at [[ADDR]]
  // CHECK-NEXT:   Thread T1 (tid={{[0-9]+}}, running) created by T0 at:
  // CHECK:        Thread T0 (tid={{[0-9]+}}, running) is the main thread
  // CHECK-NEXT: SUMMARY: HybridRace: data race {{.*}}race_cpp_std_thread.cpp:[[#LAMBDA]] in main::$_0::operator()() const
  invisible_signal(&MainWrote);
  T.join();
  std::printf("Counter = %d\n", Counter);
  return 0;
}
// CHECK: HybridRace: reported 1 warning
