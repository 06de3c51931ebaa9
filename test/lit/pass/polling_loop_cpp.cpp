// C++ polling loops: std::mutex (through std::lock_guard or unique_lock)
// and std::this_thread::sleep_for or yield, all inline wrappers that reach
// pthread_mutex_lock, libstdc++'s __sleep_for and sched_yield. The
// condition may be a virtual call.
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <chrono>
#include <mutex>
#include <thread>

std::mutex mu;
bool ready;

struct Predicate {
  virtual bool Eval() = 0;
};

// CHECK-LABEL: define {{.*}}@_Z14poll_sleep_forv(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}null, {{.*}}null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}null, {{.*}}null)
// CHECK:       ret void
void poll_sleep_for() {
  for (;;) {
    {
      std::lock_guard<std::mutex> guard(mu);
      if (ready)
        return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// CHECK-LABEL: define {{.*}}@_Z14poll_predicateR9Predicate(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}null, {{.*}}null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}null, {{.*}}null)
// CHECK:       ret void
void poll_predicate(Predicate &p) {
  std::unique_lock<std::mutex> lock(mu);
  while (!p.Eval()) {
    lock.unlock();
    std::this_thread::yield();
    lock.lock();
  }
}

// CHECK-LABEL: define {{.*}}@_Z12count_yieldsi(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void count_yields(int n) {
  for (int i = 0; i < n; ++i)
    std::this_thread::yield();
}
