// condition_variable::wait_until: with the steady clock it ends in
// pthread_cond_clockwait, with the system clock in pthread_cond_timedwait.
// Either way the loop around it is a wait loop, with the condition variable
// and the mutex of the lock.
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2

#include <chrono>
#include <condition_variable>
#include <mutex>

std::mutex m;
std::condition_variable cv;
bool ready;

// CHECK-LABEL: define {{.*}}@_Z17wait_ready_steadyNSt6chrono10time_point
// O0:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{i8\*|ptr}} %hrace.wait_mutex)
// O2:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// O0:          invoke {{.*}}@_ZNSt18condition_variable10wait_until{{.*}}({{.*}}@cv{{.*}}, {{.*}} %lock,
// O2:          invoke {{.*}}@pthread_cond_clockwait({{.*}}@cv{{.*}}, {{.*}}@m
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}})
// CHECK:       ret i1
bool wait_ready_steady(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(m);
  while (!ready)
    if (cv.wait_until(lock, deadline) == std::cv_status::timeout)
      return false;
  return true;
}

// CHECK-LABEL: define {{.*}}@_Z17wait_ready_systemNSt6chrono10time_point
// O0:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{i8\*|ptr}} %hrace.wait_mutex)
// O2:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// O0:          invoke {{.*}}@_ZNSt18condition_variable10wait_until{{.*}}({{.*}}@cv{{.*}}, {{.*}} %lock,
// O2:          invoke {{.*}}@pthread_cond_timedwait({{.*}}@cv{{.*}}, {{.*}}@m
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}})
// CHECK:       ret i1
bool wait_ready_system(std::chrono::system_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(m);
  while (!ready)
    if (cv.wait_until(lock, deadline) == std::cv_status::timeout)
      return false;
  return true;
}

// The predicate form loops itself: marked in the instantiation at -O0, in
// the caller at -O2.
// CHECK-LABEL: define {{.*}}@_Z15wait_ready_predNSt6chrono10time_point
// O0-NOT:      @__hrace_wait_loop_
// O2:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// O2:          invoke {{.*}}@pthread_cond_timedwait({{.*}}@cv{{.*}}, {{.*}}@m
// O2:          call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}})
// CHECK:       ret i1
bool wait_ready_pred(std::chrono::system_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(m);
  return cv.wait_until(lock, deadline, [] { return ready; });
}

// O0-LABEL: define internal {{.*}}@"_ZNSt18condition_variable10wait_untilINSt6chrono3_V212system_clockE{{.*}}Z15wait_ready_pred
// O0:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} %{{[0-9a-z]+}}, {{i8\*|ptr}} %hrace.wait_mutex)
// O0:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} %{{[0-9a-z]+}}, {{i8\*|ptr}} %hrace.wait_mutex{{[0-9]+}})
