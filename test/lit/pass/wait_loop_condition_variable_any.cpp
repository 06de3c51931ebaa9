// std::condition_variable_any (std::_V2:: in libstdc++) waits on the
// condition_variable it starts with; its wait members are templates over the
// lock type. The loop around one is a wait loop with the object as the
// condition variable and, as mutex, the one the caller's lock holds: known
// for std::unique_lock<std::mutex> and a plain std::mutex, null for other
// lock types.
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2

#include <condition_variable>
#include <mutex>
#include <shared_mutex>

std::mutex m;
std::shared_mutex sm;
std::condition_variable_any cv;
bool ready;

// CHECK-LABEL: define {{.*}}@_Z16wait_with_uniquev(
// O0:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{i8\*|ptr}} %hrace.wait_mutex)
// O2:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       load {{.*}}@ready
// CHECK:       {{call|invoke}} {{.*}}@_ZNSt3_V222condition_variable_any4waitISt11unique_lockISt5mutexEEEvRT_({{.*}}@cv{{.*}}, {{.*}} %lock)
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{i8\*|ptr}} %{{.*}})
// CHECK:       ret void
void wait_with_unique() {
  std::unique_lock<std::mutex> lock(m);
  while (!ready)
    cv.wait(lock);
}

// CHECK-LABEL: define {{.*}}@_Z15wait_with_mutexv(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       {{call|invoke}} {{.*}}@_ZNSt3_V222condition_variable_any4waitISt5mutexEEvRT_(
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// CHECK:       ret void
void wait_with_mutex() {
  m.lock();
  while (!ready)
    cv.wait(m);
  m.unlock();
}

// CHECK-LABEL: define {{.*}}@_Z16wait_with_sharedv(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{i8\*|ptr}} null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{i8\*|ptr}} null)
// CHECK:       ret void
void wait_with_shared() {
  std::unique_lock<std::shared_mutex> lock(sm);
  while (!ready)
    cv.wait(lock);
}

// The predicate form loops itself.
// CHECK-LABEL: define {{.*}}@_Z9wait_predv(
// O0-NOT:      @__hrace_wait_loop_
// O2:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// O2:          {{call|invoke}} {{.*}}@_ZNSt3_V222condition_variable_any4waitISt11unique_lockISt5mutexEEEvRT_(
// O2:          call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{i8\*|ptr}} %{{.*}})
// CHECK:       ret void
void wait_pred() {
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [] { return ready; });
}

// O0-LABEL: define {{.*}}@"_ZNSt3_V222condition_variable_any4waitISt11unique_lockISt5mutexEZ9wait_predvE3$_0EEvRT_T0_"(
// O0:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} %{{[0-9a-z]+}}, {{i8\*|ptr}} %hrace.wait_mutex)
// O0:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} %{{[0-9a-z]+}}, {{i8\*|ptr}} %hrace.wait_mutex{{[0-9]+}})
// O0:       ret void
