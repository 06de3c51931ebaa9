// A queue allocated with malloc: the loop waits on fields of the new object,
// whose address comes from the call. At -O0 it lives in a local variable
// stored once, which the pass looks through; the marks pass the fields'
// addresses, computed from the allocation, at the loop's entry and exit.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O2 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>
#include <stdlib.h>

struct queue {
  int flag;
  pthread_mutex_t mu; // offset 8
  pthread_cond_t cv;  // offset 48
};

void start_producer(struct queue *q);

// CHECK-LABEL: define {{.*}}@consume(
// CHECK:       %call = {{(tail )?}}call {{.*}}@malloc(
// CHECK-DAG:   [[CV:%[0-9a-z]+]] = getelementptr {{.*}}%call, i64 48
// CHECK-DAG:   [[MU:%[0-9a-z]+]] = getelementptr {{.*}}%call, i64 8
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} {{(nonnull )?}}[[CV]], {{i8\*|ptr}} {{(nonnull )?}}[[MU]])
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call {{.*}}@pthread_cond_wait(
// CHECK-NOT:   @__hrace_wait_loop_enter
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}}, {{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call {{.*}}@pthread_mutex_unlock(
void consume(void) {
  struct queue *q = malloc(sizeof *q);
  q->flag = 0;
  pthread_mutex_init(&q->mu, 0);
  pthread_cond_init(&q->cv, 0);
  start_producer(q);
  pthread_mutex_lock(&q->mu);
  while (!q->flag)
    pthread_cond_wait(&q->cv, &q->mu);
  pthread_mutex_unlock(&q->mu);
}

// The queue's address read from another object before the loop: the marks
// use what the program loaded (no load of their own, which the pointer the
// job holds might not allow at the mark).
struct job {
  long id;
  struct queue *q; // offset 8
};

// CHECK-LABEL: define {{.*}}@consume_job(
// CHECK:       = load {{%struct.queue\*|ptr}}, {{.*}}%q1
// CHECK-DAG:   getelementptr {{.*}}, i64 {{48|0, i32 2}}
// CHECK-DAG:   getelementptr {{.*}}, i64 {{8|0, i32 1}}
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}}, {{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}})
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       call {{.*}}@pthread_cond_wait(
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}}, {{i8\*|ptr}} {{(nonnull )?}}%{{[0-9a-z]+}})
void consume_job(struct job *j) {
  struct queue *q = j->q;
  pthread_mutex_lock(&q->mu);
  while (!q->flag)
    pthread_cond_wait(&q->cv, &q->mu);
  pthread_mutex_unlock(&q->mu);
}
