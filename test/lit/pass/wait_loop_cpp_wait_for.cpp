// condition_variable::wait_for is a template of the header that ends in
// pthread_cond_clockwait (libstdc++ 12) through wait_until, __wait_until_impl
// and std::__condvar::wait_until. Known by name, it counts as a wait for the
// loop that calls it at -O0, with the caller's condition variable and the
// mutex of its lock; at -O2 the loop calls pthread_cond_clockwait itself.
// Both ways out of the loop (timed out, ready) are marked.
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2

#include <chrono>
#include <condition_variable>
#include <mutex>

std::mutex m;
std::condition_variable cv;
bool ready;

// CHECK-LABEL: define {{.*}}@_Z14wait_ready_forv(
// O0:          [[MUTEX:%hrace.wait_mutex[0-9]*]] = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %{{.*}}
// O0-NEXT:     call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{i8\*|ptr}} [[MUTEX]])
// O2:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       load {{.*}}@ready
// O0:          invoke {{.*}}@_ZNSt18condition_variable8wait_forIlSt5ratioILl1ELl1000EEEESt9cv_statusRSt11unique_lockISt5mutexERKNSt6chrono8durationIT_T0_EE({{.*}}@cv{{.*}}, {{.*}} %lock,
// O2:          invoke {{.*}}@pthread_cond_clockwait({{.*}}@cv{{.*}}, {{.*}}@m
// CHECK-NOT:   @__hrace_wait_loop_enter
// O0-COUNT-2:  call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{i8\*|ptr}} %hrace.wait_mutex{{[0-9]*}})
// O2:          call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       ret i1
bool wait_ready_for() {
  std::unique_lock<std::mutex> lock(m);
  while (!ready)
    if (cv.wait_for(lock, std::chrono::milliseconds(10)) ==
        std::cv_status::timeout)
      return false;
  return true;
}

// With a predicate the loop is the one of wait_until(lock, time, pred),
// which wait_for(lock, time, pred) calls: marked there at -O0, and in the
// caller once inlined.
// CHECK-LABEL: define {{.*}}@_Z19wait_ready_for_predv(
// O0-NOT:      @__hrace_wait_loop_
// O2:          call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// O2:          invoke {{.*}}@pthread_cond_clockwait({{.*}}@cv{{.*}}, {{.*}}@m
// O2:          call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// CHECK:       ret i1
bool wait_ready_for_pred() {
  std::unique_lock<std::mutex> lock(m);
  return cv.wait_for(lock, std::chrono::milliseconds(10), [] { return ready; });
}

// O0-LABEL: define internal {{.*}}@"_ZNSt18condition_variable10wait_untilINSt6chrono3_V212steady_clockENS1_8durationIlSt5ratioILl1ELl1000000000EEEEZ19wait_ready_for_predvE3$_0EEbRSt11unique_lockISt5mutexERKNS1_10time_pointIT_T0_EET1_"(
// O0-SAME:  %this, {{.*}} %__lock,
// O0:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} %{{[0-9a-z]+}}, {{i8\*|ptr}} %hrace.wait_mutex)
// O0:       invoke {{.*}}@_ZNSt18condition_variable10wait_until
// O0-COUNT-2: call void @__hrace_wait_loop_exit({{i8\*|ptr}} %{{[0-9a-z]+}}, {{i8\*|ptr}} %hrace.wait_mutex{{[0-9]+}})
// O0:       ret i1
