// A loop around pthread_cond_wait is marked: __hrace_wait_loop_enter before
// the condition is first tested, __hrace_wait_loop_exit where the loop is
// left, both with the condition variable and the mutex of the wait. At -O2
// the loop is rotated: the first test of the flag moves in front of it, and
// the path on which the signal came first skips the loop entirely; the exit
// mark is still on it, since the marks are placed before optimisation.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2

#include <pthread.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

// CHECK-LABEL: define {{.*}}@wait_ready(
// CHECK:       call {{.*}}@pthread_mutex_lock(
// CHECK-NEXT:  call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// O0:          br label %[[COND:[0-9]+]]
// O0:          {{^}}[[COND]]:
// CHECK:       load i32, {{.*}}@ready
// CHECK:       br i1 {{.*}}, label %[[BODY:[0-9]+]], label %[[END:[0-9]+]]
// CHECK:       {{^}}[[BODY]]:
// CHECK-NEXT:  call {{.*}}@pthread_cond_wait({{.*}}@cv{{.*}}@mu
// CHECK-NOT:   @__hrace_wait_loop_
// O0:          br label %[[COND]]
// O2:          load i32, {{.*}}@ready
// O2:          br i1 {{.*}}, label %[[BODY]], label %[[END]]
// CHECK:       {{^}}[[END]]:
// CHECK-NEXT:  call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NEXT:  call {{.*}}@pthread_mutex_unlock(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void wait_ready(void) {
  pthread_mutex_lock(&mu);
  while (!ready)
    pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
}

// The marks are declared like the other runtime entry points.
// CHECK-DAG: declare void @__hrace_wait_loop_enter({{i8\*|ptr}}, {{i8\*|ptr}}){{.*}} [[ATTRS:#[0-9]+]]
// CHECK-DAG: declare void @__hrace_wait_loop_exit({{i8\*|ptr}}, {{i8\*|ptr}}){{.*}} [[ATTRS]]
// CHECK-DAG: attributes [[ATTRS]] = { nounwind }
