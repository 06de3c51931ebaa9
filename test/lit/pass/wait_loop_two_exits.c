// A `while` left by its condition or by a `break` has two exit edges, each
// marked once, and only on the way out: the critical edge from the condition
// is split, the `break` block ends in the exit and gets the mark before its
// branch.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready, stopping;

// CHECK-LABEL: define {{.*}}@wait_ready_or_stop(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NEXT:  br label %while.cond
// CHECK:       while.cond:
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       br i1 %{{.*}}, label %while.body, label %hrace.wait_loop_exit
// CHECK:       hrace.wait_loop_exit:
// CHECK-NEXT:  call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NEXT:  br label %while.end
// CHECK:       while.body:
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       br i1 %{{.*}}, label %if.then, label %if.end
// CHECK:       if.then:
// CHECK-NEXT:  call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NEXT:  br label %while.end
// CHECK:       if.end:
// CHECK-NEXT:  call {{.*}}@pthread_cond_wait(
// CHECK-NEXT:  br label %while.cond
// CHECK:       while.end:
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void wait_ready_or_stop(void) {
  pthread_mutex_lock(&mu);
  while (!ready) {
    if (stopping)
      break;
    pthread_cond_wait(&cv, &mu);
  }
  pthread_mutex_unlock(&mu);
}
