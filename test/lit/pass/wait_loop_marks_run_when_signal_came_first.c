// The marks are placed before optimisation, so the -O2 code runs them on every
// path: when the signal came first and the loop body never runs (the case the
// runtime cannot see otherwise), and when the thread really waits. A stand-in
// for the runtime, built from the same file with -DRUNTIME, counts them and
// checks their arguments.
// RUN: %clang --target=x86_64-linux-gnu -O2 -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=hrace-wait-loops -S %t.ll -o %t.marked.ll
// RUN: %clang --target=x86_64-linux-gnu -O2 -c %t.marked.ll -o %t.o
// RUN: %clang --target=x86_64-linux-gnu -O2 -DRUNTIME %s %t.o -o %t -pthread
// RUN: %t | FileCheck %s

#include <pthread.h>
#include <stdio.h>

#ifdef RUNTIME
extern pthread_mutex_t mu;
extern pthread_cond_t cv;
int enters, exits, bad_args;
void __hrace_wait_loop_enter(void *c, void *m) {
  ++enters;
  bad_args += c != &cv || m != &mu;
}
void __hrace_wait_loop_exit(void *c, void *m) {
  ++exits;
  bad_args += c != &cv || m != &mu;
}
#else
extern int enters, exits, bad_args;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void *signal_ready(void *arg) {
  pthread_mutex_lock(&mu);
  ready = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
  return 0;
}

__attribute__((noinline)) void wait_ready(void) {
  pthread_mutex_lock(&mu);
  while (!ready)
    pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
}

int main(void) {
  pthread_t thread;
  // CHECK: signal first: enter 1 exit 1 bad 0
  pthread_create(&thread, 0, signal_ready, 0);
  pthread_join(thread, 0);
  wait_ready();
  printf("signal first: enter %d exit %d bad %d\n", enters, exits, bad_args);

  // CHECK: concurrent: enter 1 exit 1 bad 0
  ready = 0;
  enters = exits = 0;
  pthread_create(&thread, 0, signal_ready, 0);
  wait_ready();
  pthread_join(thread, 0);
  printf("concurrent: enter %d exit %d bad %d\n", enters, exits, bad_args);
  return 0;
}
#endif
