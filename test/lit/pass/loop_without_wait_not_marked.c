// Only loops that wait (or poll, polling_loop_marked.c) are marked. Loops
// that lock, signal or call other functions a number of times are not; nor
// is a loop calling a function whose own loop does the waiting (that loop is
// marked instead, see wait_loop_nested.c); nor a loop calling a function
// merely named like a wait. Waits through function pointers are not seen.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready, count;
int (*wait_fn)(pthread_cond_t *, pthread_mutex_t *) = pthread_cond_wait;
void work(int);

// CHECK-LABEL: define {{.*}}@count_up(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void count_up(int n) {
  for (int i = 0; i < n; ++i) {
    pthread_mutex_lock(&mu);
    ++count;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    work(i);
  }
}

// CHECK-LABEL: define {{.*}}@spin(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void spin(void) {
  while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
    ;
}

// The loop in here is marked; callers of wait_ready are not wait loops.
// CHECK-LABEL: define {{.*}}@wait_ready(
// CHECK:       call void @__hrace_wait_loop_enter(
// CHECK:       call void @__hrace_wait_loop_exit(
// CHECK:       ret void
__attribute__((noinline)) void wait_ready(void) {
  pthread_mutex_lock(&mu);
  while (!ready)
    pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
}

// CHECK-LABEL: define {{.*}}@wait_ready_n_times(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void wait_ready_n_times(int n) {
  for (int i = 0; i < n; ++i)
    wait_ready();
}

// CHECK-LABEL: define {{.*}}@my_cond_wait(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret i32
__attribute__((noinline)) int my_cond_wait(pthread_cond_t *c,
                                           pthread_mutex_t *m) {
  return c == 0 || m == 0;
}

// CHECK-LABEL: define {{.*}}@not_a_wait(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void not_a_wait(void) {
  while (!ready)
    my_cond_wait(&cv, &mu);
}

// CHECK-LABEL: define {{.*}}@through_pointer(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void through_pointer(void) {
  while (!ready)
    wait_fn(&cv, &mu);
}
