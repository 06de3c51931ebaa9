// Loops in disable_sanitizer_instrumentation functions are not marked, but
// such a function still waits for its callers. optnone functions are marked
// like any other: the pass is required.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

// CHECK-LABEL: define {{.*}}@not_sanitized(
// CHECK-NOT:   call {{.*}}@__hrace_
// CHECK:       {{^}}}
__attribute__((disable_sanitizer_instrumentation)) void not_sanitized(void) {
  while (!ready)
    pthread_cond_wait(&cv, &mu);
}

// CHECK-LABEL: define {{.*}}@unsanitized_helper(
// CHECK-NOT:   call {{.*}}@__hrace_
// CHECK:       {{^}}}
__attribute__((disable_sanitizer_instrumentation, noinline)) void
unsanitized_helper(void) {
  pthread_cond_wait(&cv, &mu);
}

// CHECK-LABEL: define {{.*}}@calls_unsanitized_helper(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK:       call void @unsanitized_helper()
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
void calls_unsanitized_helper(void) {
  while (!ready)
    unsanitized_helper();
}

// CHECK-LABEL: define {{.*}}@unoptimised(
// CHECK-SAME:  #[[ATTRS:[0-9]+]]
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK:       call {{.*}}@pthread_cond_wait(
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK:       attributes #[[ATTRS]] = { {{.*}}optnone
__attribute__((optnone, noinline)) void unoptimised(void) {
  while (!ready)
    pthread_cond_wait(&cv, &mu);
}
