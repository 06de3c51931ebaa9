// Loops around pthread_cond_timedwait and pthread_cond_clockwait are wait
// loops too. Each way out is an exit edge and gets its mark: the timeout
// return as much as the flag being set.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

// CHECK-LABEL: define {{.*}}@wait_ready_until(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// O0:          call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call {{.*}}@pthread_cond_timedwait({{.*}}@cv{{.*}}, {{.*}}@mu
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret i32
int wait_ready_until(const struct timespec *deadline) {
  int result = 0;
  pthread_mutex_lock(&mu);
  while (!ready) {
    if (pthread_cond_timedwait(&cv, &mu, deadline) == ETIMEDOUT) {
      result = -1;
      break;
    }
  }
  pthread_mutex_unlock(&mu);
  return result;
}

// A return from inside the loop leaves it as well.
// CHECK-LABEL: define {{.*}}@wait_ready_monotonic(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call {{.*}}@pthread_cond_clockwait({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}}, i32 noundef 1,
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// O0:          call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret i32
int wait_ready_monotonic(const struct timespec *deadline) {
  while (!ready)
    if (pthread_cond_clockwait(&cv, &mu, CLOCK_MONOTONIC, deadline) ==
        ETIMEDOUT)
      return -1;
  return 0;
}
