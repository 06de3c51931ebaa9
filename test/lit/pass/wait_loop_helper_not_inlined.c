// A function of the module that waits outside any loop of its own makes the
// loops that call it wait loops, through any number of such helpers. The
// condition variable and mutex follow the helper's parameters: passed
// straight through, as a field of a parameter (a constant offset from it), or
// global. The helpers themselves have no loop and no marks.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>

struct queue {
  pthread_mutex_t mu; // offset 0
  pthread_cond_t cv;  // offset 40
  int items;
};

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

// CHECK-LABEL: define {{.*}}@wait_on(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
__attribute__((noinline)) void wait_on(pthread_cond_t *c, pthread_mutex_t *m) {
  pthread_cond_wait(c, m);
}

// CHECK-LABEL: define {{.*}}@wait_on_queue(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
__attribute__((noinline)) void wait_on_queue(struct queue *q) {
  pthread_cond_wait(&q->cv, &q->mu);
}

__attribute__((noinline)) void wait_on_queue_again(struct queue *q) {
  wait_on_queue(q);
}

__attribute__((noinline)) void wait_on_globals(void) {
  pthread_cond_wait(&cv, &mu);
}

// CHECK-LABEL: define {{.*}}@wait_ready(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call void @wait_on({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK:       ret void
void wait_ready(void) {
  pthread_mutex_lock(&mu);
  while (!ready)
    wait_on(&cv, &mu);
  pthread_mutex_unlock(&mu);
}

// CHECK-LABEL: define {{.*}}@take(
// CHECK:       getelementptr {{.*}}, i64 {{40|0, i32 1}}
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} %{{[0-9]+}}, {{i8\*|ptr}} %{{[0-9a-z]+}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call void @wait_on_queue(
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} %{{[0-9]+}}, {{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}})
// CHECK:       ret void
void take(struct queue *q) {
  pthread_mutex_lock(&q->mu);
  while (!q->items)
    wait_on_queue(q);
  --q->items;
  pthread_mutex_unlock(&q->mu);
}

// CHECK-LABEL: define {{.*}}@take_again(
// CHECK:       getelementptr {{.*}}, i64 {{40|0, i32 1}}
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} %{{[0-9]+}}, {{i8\*|ptr}} %{{[0-9a-z]+}})
// CHECK:       call void @wait_on_queue_again(
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} %{{[0-9]+}}, {{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}})
// CHECK:       ret void
void take_again(struct queue *q) {
  pthread_mutex_lock(&q->mu);
  while (!q->items)
    wait_on_queue_again(q);
  --q->items;
  pthread_mutex_unlock(&q->mu);
}

// CHECK-LABEL: define {{.*}}@wait_ready_globals(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK:       call void @wait_on_globals()
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
// CHECK:       ret void
void wait_ready_globals(void) {
  pthread_mutex_lock(&mu);
  while (!ready)
    wait_on_globals();
  pthread_mutex_unlock(&mu);
}
