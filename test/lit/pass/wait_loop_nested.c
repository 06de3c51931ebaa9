// The loop marked is the innermost one around the wait. An outer loop that
// only contains a wait loop is not marked, and neither is an inner loop
// without a wait inside a wait loop.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready[16];
void work(int);

// CHECK-LABEL: define {{.*}}@wait_each(
// CHECK-COUNT-1: call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call {{.*}}@pthread_cond_wait(
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK-COUNT-1: call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       {{^}}}
void wait_each(int n) {
  for (int i = 0; i < n; ++i) {
    pthread_mutex_lock(&mu);
    while (!ready[i])
      pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    work(i);
  }
}

// CHECK-LABEL: define {{.*}}@wait_all(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call void @work(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void wait_all(int n) {
  pthread_mutex_lock(&mu);
  for (;;) {
    int done = 0;
    for (int i = 0; i < n; ++i) {
      done += ready[i];
      work(i);
    }
    if (done == n)
      break;
    pthread_cond_wait(&cv, &mu);
  }
  pthread_mutex_unlock(&mu);
}
