// A thread started with std::thread is created inside libstdc++
// (std::thread::_M_start_thread calls pthread_create): its creation stack
// starts there, goes through the constructor to the function that started
// the thread, and reaches main. The previous access shows its whole stack
// in the worker.
//
// RUN: %hrace_cxx %s -o %t
// RUN: not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <thread>

static int Counter;
static int WorkerWrote;

__attribute__((noinline)) static void Increment() { Counter++; }
__attribute__((noinline)) static void Work() { Increment(); }

__attribute__((noinline)) static std::thread StartWorker() {
  return std::thread([] {
    Work();
    invisible_signal(&WorkerWrote);
  });
}

int main() {
  std::thread T = StartWorker();
  invisible_wait(&WorkerWrote);
  Counter = 5;
  T.join();
  return 0;
}

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{.*}} by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}std_thread_creation_stack_reaches_main.cpp:29
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Increment() {{.*}}std_thread_creation_stack_reaches_main.cpp:16
// CHECK-NEXT:     #1 Work() {{.*}}std_thread_creation_stack_reaches_main.cpp:17
// CHECK-NEXT:     #2 StartWorker()::$_0::operator()() const {{.*}}std_thread_creation_stack_reaches_main.cpp:21
// CHECK:        Thread T1 (tid={{[0-9]+}}, {{running|finished}}) created by T0 at:
// The first frame is in libstdc++ (std::thread::_M_start_thread; under
// qemu-aarch64 the host's symbolizer cannot name it, the module is shown).
// CHECK-NEXT:     #0 {{.*}}(/{{.*}}libstdc++.so{{.*}}+0x{{[0-9a-f]+}})
// CHECK-NEXT:     #1 std::thread::thread<StartWorker()::$_0
// CHECK-NEXT:     #2 StartWorker() {{.*}}std_thread_creation_stack_reaches_main.cpp:20
// CHECK-NEXT:     #3 main {{.*}}std_thread_creation_stack_reaches_main.cpp:27
// CHECK-NEXT: SUMMARY: HybridRace: data race {{.*}}std_thread_creation_stack_reaches_main.cpp:29 in main
