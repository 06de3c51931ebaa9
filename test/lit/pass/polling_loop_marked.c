// Polling loops are marked like wait loops, with null pointers: a loop that
// takes a lock, sleeps or yields (itself or through a function of the
// module) and leaves on a condition computed in the loop from shared memory
// or from a call. The runtime orders the thread at the exit after whoever
// wrote what the condition read under the lock, as for a lost signal.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
int ready, count;
int (*pred)(void *);
void *pred_arg;

// A flag read under the lock into a local, then tested outside it: clang
// turns the `break` out of the local's scope into a store to a cleanup slot
// and a switch on it, which the condition is still traced through.
// CHECK-LABEL: define {{.*}}@poll_with_sleep(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}null, {{.*}}null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}null, {{.*}}null)
// CHECK:       ret void
void poll_with_sleep(void) {
  for (;;) {
    pthread_mutex_lock(&mu);
    int f = ready;
    pthread_mutex_unlock(&mu);
    if (f)
      break;
    usleep(100);
  }
}

// CHECK-LABEL: define {{.*}}@poll_holding_the_lock(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}null, {{.*}}null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}null, {{.*}}null)
// CHECK:       ret void
void poll_holding_the_lock(void) {
  pthread_mutex_lock(&mu);
  while (!ready) {
    pthread_mutex_unlock(&mu);
    sched_yield();
    pthread_mutex_lock(&mu);
  }
  pthread_mutex_unlock(&mu);
}

__attribute__((noinline)) int ready_now(void) {
  pthread_mutex_lock(&mu);
  int r = ready;
  pthread_mutex_unlock(&mu);
  return r;
}

// The lock is in a helper, the condition is the helper's result.
// CHECK-LABEL: define {{.*}}@poll_through_helper(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}null, {{.*}}null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}null, {{.*}}null)
// CHECK:       ret void
void poll_through_helper(void) {
  while (!ready_now())
    usleep(100);
}

// A condition evaluated through a function pointer, as Await(Condition)
// helpers do.
// CHECK-LABEL: define {{.*}}@poll_indirect_condition(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}null, {{.*}}null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}null, {{.*}}null)
// CHECK:       ret void
void poll_indirect_condition(void) {
  pthread_mutex_lock(&mu);
  while (!pred(pred_arg)) {
    pthread_mutex_unlock(&mu);
    sched_yield();
    pthread_mutex_lock(&mu);
  }
  pthread_mutex_unlock(&mu);
}

// Only the loop that leaves on the shared state is marked, not the counting
// loop inside it.
// CHECK-LABEL: define {{.*}}@poll_around_a_counting_loop(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}null, {{.*}}null)
// CHECK-NOT:   call void @__hrace_wait_loop_enter(
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}null, {{.*}}null)
// CHECK-NOT:   call void @__hrace_wait_loop_
// CHECK:       ret void
void poll_around_a_counting_loop(int n) {
  while (!ready_now())
    for (int i = 0; i < n; ++i) {
      pthread_mutex_lock(&mu);
      ++count;
      pthread_mutex_unlock(&mu);
    }
}

// A bounded number of tries still polls: the flag half of the condition
// leaves the loop when the flag says so.
// CHECK-LABEL: define {{.*}}@poll_a_few_times(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}null, {{.*}}null)
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}null, {{.*}}null)
// CHECK:       ret void
void poll_a_few_times(int tries) {
  for (int t = 0; t < tries && !ready_now(); ++t)
    usleep(100);
}

// Loops that lock or sleep a number of times are not polling, even when
// the number is shared memory: the exit waits for a counter, not for
// another thread.
// CHECK-LABEL: define {{.*}}@count_over_a_shared_bound(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void count_over_a_shared_bound(void) {
  for (int i = 0; i < count; ++i) {
    pthread_mutex_lock(&mu);
    ready++;
    pthread_mutex_unlock(&mu);
  }
}

// CHECK-LABEL: define {{.*}}@count_under_lock(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void count_under_lock(int n) {
  for (int i = 0; i < n; ++i) {
    pthread_mutex_lock(&mu);
    ++count;
    pthread_mutex_unlock(&mu);
  }
}

// CHECK-LABEL: define {{.*}}@sleep_n_times(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void sleep_n_times(int n) {
  for (int i = 0; i < n; ++i)
    usleep(10);
}

// Nor is a loop on shared state that neither locks, sleeps nor yields.
// CHECK-LABEL: define {{.*}}@busy_loop(
// CHECK-NOT:   @__hrace_wait_loop_
// CHECK:       ret void
void busy_loop(void) {
  while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
    ;
}
