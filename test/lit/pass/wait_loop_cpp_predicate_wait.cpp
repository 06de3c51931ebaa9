// cv.wait(lock, pred) is a template whose body is `while (!pred())
// wait(lock);`. At -O0 that loop is in the instantiation and is marked there,
// with `this` and the mutex of the lock (the pointer at the start of the
// std::unique_lock); the caller has no loop and no marks. At -O2 the
// template is inlined and the marks come along into the caller.
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O2

#include <condition_variable>
#include <mutex>

std::mutex m;
std::condition_variable cv;
bool ready;

// O0-LABEL: define {{.*}}@_Z10wait_readyv(
// O0-NOT:   @__hrace_wait_loop_
// O0:       {{call|invoke}} void @"_ZNSt18condition_variable4waitIZ10wait_readyvE3$_0EEvRSt11unique_lockISt5mutexET_"(
// O0-NOT:   @__hrace_wait_loop_
// O0:       ret void

// O2-LABEL: define {{.*}}@_Z10wait_readyv(
// O2:       call {{.*}}@pthread_mutex_lock(
// O2:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@m{{.*}})
// O2-NOT:   @__hrace_wait_loop_
// O2:       load {{.*}}@ready
// O2:       invoke void @_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE({{.*}}@cv{{.*}}, {{.*}} %lock)
// O2-NOT:   @__hrace_wait_loop_enter
// O2:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{i8\*|ptr}} %{{.*}})
// O2-NOT:   @__hrace_wait_loop_
// O2:       ret void
void wait_ready() {
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [] { return ready; });
}

// O0-LABEL: define internal void @"_ZNSt18condition_variable4waitIZ10wait_readyvE3$_0EEvRSt11unique_lockISt5mutexET_"(
// O0-SAME:  %this, {{.*}} %__lock)
// O0:       [[MUTEX:%hrace.wait_mutex[0-9]*]] = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %{{.*}}
// O0-NEXT:  call void @__hrace_wait_loop_enter({{i8\*|ptr}} %{{[0-9a-z]+}}, {{i8\*|ptr}} [[MUTEX]])
// O0-NEXT:  br label %while.cond
// O0:       while.cond:
// O0:       call {{.*}}@"_ZZ10wait_readyvENK3$_0clEv"(
// O0:       while.body:
// O0:       invoke void @_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE(
// O0:       while.end:
// O0:       [[MUTEX2:%hrace.wait_mutex[0-9]*]] = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %{{.*}}
// O0-NEXT:  call void @__hrace_wait_loop_exit({{i8\*|ptr}} %{{[0-9a-z]+}}, {{i8\*|ptr}} [[MUTEX2]])
// O0-NOT:   @__hrace_wait_loop_
// O0:       ret void
