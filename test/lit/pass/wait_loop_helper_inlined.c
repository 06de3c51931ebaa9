// A wait helper small enough to be inlined: the loop that calls it is marked
// before the inliner runs, with the arguments mapped through the helper, and
// after inlining the marks sit around a loop that calls pthread_cond_wait
// itself. At -O0 the helper stays a call and the marks are the same.
// RUN: %clang --target=x86_64-linux-gnu -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %clang --target=x86_64-linux-gnu -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O0

#include <pthread.h>

struct queue {
  pthread_mutex_t mu;
  pthread_cond_t cv; // offset 40
  int items;
};

static void wait_on_queue(struct queue *q) {
  pthread_cond_wait(&q->cv, &q->mu);
}

// CHECK-LABEL: define {{.*}}@take(
// CHECK:       call {{.*}}@pthread_mutex_lock(
// CHECK:       getelementptr {{.*}}, i64 {{40|0, i32 1}}
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} %{{[0-9]+}}, {{i8\*|ptr}} %{{[0-9a-z]+}})
// CHECK-NOT:   @__hrace_wait_loop_
// O2:          call {{.*}}@pthread_cond_wait(
// O0:          call void @wait_on_queue(
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} %{{[0-9]+}}, {{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call {{.*}}@pthread_mutex_unlock(
// CHECK:       ret void
void take(struct queue *q) {
  pthread_mutex_lock(&q->mu);
  while (!q->items)
    wait_on_queue(q);
  --q->items;
  pthread_mutex_unlock(&q->mu);
}

// O2-NOT: define {{.*}}@wait_on_queue(
// O0:     define {{.*}}@wait_on_queue(
// O0-NOT: @__hrace_wait_loop_
// O0:     ret void
