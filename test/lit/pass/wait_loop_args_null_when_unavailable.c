// A loop is marked even when the condition variable or the mutex of its wait
// cannot be passed; the runtime then gets null for it. That is the case when
// the loop waits on different objects, when the object is computed inside the
// loop, and when getting it would mean loading from memory the program may
// not be able to read at the mark (a field of an object the loop may never
// touch).
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
pthread_cond_t other_cv = PTHREAD_COND_INITIALIZER;
int ready;

struct shared {
  pthread_cond_t *cv;
  pthread_mutex_t *mu;
  int ready;
};

pthread_cond_t *next_cv(void);

// CHECK-LABEL: define {{.*}}@two_condition_variables(
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} null, {{.*}}@mu{{.*}})
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} null, {{.*}}@mu{{.*}})
void two_condition_variables(int which) {
  pthread_mutex_lock(&mu);
  while (!ready) {
    if (which)
      pthread_cond_wait(&cv, &mu);
    else
      pthread_cond_wait(&other_cv, &mu);
  }
  pthread_mutex_unlock(&mu);
}

// CHECK-LABEL: define {{.*}}@computed_in_loop(
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} null, {{.*}}@mu{{.*}})
// CHECK:       call {{.*}}@next_cv()
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} null, {{.*}}@mu{{.*}})
void computed_in_loop(void) {
  pthread_mutex_lock(&mu);
  while (!ready)
    pthread_cond_wait(next_cv(), &mu);
  pthread_mutex_unlock(&mu);
}

// CHECK-LABEL: define {{.*}}@stored_in_object(
// CHECK:       call void @__hrace_wait_loop_enter({{i8\*|ptr}} null, {{i8\*|ptr}} null)
// CHECK:       call void @__hrace_wait_loop_exit({{i8\*|ptr}} null, {{i8\*|ptr}} null)
void stored_in_object(struct shared *s) {
  while (!s->ready)
    pthread_cond_wait(s->cv, s->mu);
}
