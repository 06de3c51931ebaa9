// C++ helpers and members. A helper that takes the condition variable and the
// lock by reference maps them to its callers (the mutex is read from the
// lock). A member function waits on fields of `this`. Pointers stored in an
// object passed by reference can be read at the mark: a reference is always
// dereferenceable. A lock constructed inside the loop does not exist yet at
// the loop's entry, so its mutex is not passed there.
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang --target=x86_64-linux-gnu -std=c++17 -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <condition_variable>
#include <mutex>
#include <pthread.h>

std::mutex m;
std::condition_variable cv;
bool ready;

__attribute__((noinline)) void wait_on(std::condition_variable &c,
                                       std::unique_lock<std::mutex> &lock) {
  c.wait(lock);
}

// CHECK-LABEL: define {{.*}}@_Z10wait_readyv(
// O0:          [[MUTEX:%hrace.wait_mutex[0-9]*]] = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %{{.*}}
// O0-NEXT:     call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{i8\*|ptr}} [[MUTEX]])
// CHECK:       {{call|invoke}} void @_Z7wait_onRSt18condition_variableRSt11unique_lockISt5mutexE({{.*}}@cv{{.*}}, {{.*}} %lock)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{i8\*|ptr}} %{{.*}})
void wait_ready() {
  std::unique_lock<std::mutex> lock(m);
  while (!ready)
    wait_on(cv, lock);
}

struct Queue {
  std::mutex m;               // offset 0
  std::condition_variable cv; // offset 40
  int items = 0;
  void take();
};

// CHECK-LABEL: define {{.*}}@_ZN5Queue4takeEv(
// CHECK:       getelementptr {{.*}}, i64 {{40|0, i32 1}}
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z._]+}}, {{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z._]+}})
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z._]+}}, {{i8\*|ptr}} %hrace.wait_mutex{{[0-9]*}})
__attribute__((noinline)) void Queue::take() {
  std::unique_lock<std::mutex> lock(m);
  while (!items)
    cv.wait(lock);
  --items;
}

struct Shared {
  pthread_cond_t *cv;
  pthread_mutex_t *mu; // offset 8
  int ready;
};

// CHECK-LABEL: define {{.*}}@_Z16stored_in_objectR6Shared(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       load {{i8\*|ptr}}, {{i8\*\*|ptr}} %{{.*}}
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} %{{[0-9a-z._]+}}, {{i8\*|ptr}} %{{[0-9a-z._]+}})
// CHECK:       {{call|invoke}} {{.*}}@pthread_cond_wait(
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} %{{[0-9a-z._]+}}, {{i8\*|ptr}} %{{[0-9a-z._]+}})
void stored_in_object(Shared &s) {
  while (!s.ready)
    pthread_cond_wait(s.cv, s.mu);
}

// CHECK-LABEL: define {{.*}}@_Z11lock_insidev(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{i8\*|ptr}} null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{i8\*|ptr}} null)
void lock_inside() {
  while (!ready) {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock);
  }
}
