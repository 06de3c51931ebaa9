// A thread started by uninstrumented code (a thread pool in a library) has a
// creation stack that goes through the library's own frames down to the
// program's function that posted the task, and on to main: the runtime
// unwinds the machine stack at pthread_create instead of relying on the
// shadow stack, which only knows instrumented functions. Both accesses of
// the race show their stacks.
//
// UNSUPPORTED: aarch64
// RUN: %clang -g -O1 -fPIC -shared -DBUILD_POOL %s -o %t-pool.so
// RUN: %hrace_cc %s %t-pool.so -o %t
// RUN: not %t 2>&1 | FileCheck %s

#include <pthread.h>

typedef void (*Task)(void);
pthread_t pool_post(Task T);
void pool_join(pthread_t Worker);

#ifdef BUILD_POOL
static void *PoolWorker(void *Arg) {
  ((Task)Arg)();
  return 0;
}

__attribute__((noinline)) static pthread_t SpawnWorker(Task T) {
  pthread_t Worker;
  pthread_create(&Worker, 0, PoolWorker, (void *)T);
  return Worker;
}

__attribute__((noinline)) pthread_t pool_post(Task T) {
  return SpawnWorker(T);
}

void pool_join(pthread_t Worker) { pthread_join(Worker, 0); }
#else
#include "hrace_test_sync.h"

int Total;
static int FirstDone;

__attribute__((noinline)) static void AddOne(void) { Total = Total + 1; }
static void FirstTask(void) {
  AddOne();
  invisible_signal(&FirstDone);
}
static void SecondTask(void) {
  invisible_wait(&FirstDone);
  AddOne();
}

__attribute__((noinline)) static pthread_t PostFirst(void) {
  return pool_post(FirstTask);
}
__attribute__((noinline)) static pthread_t PostSecond(void) {
  return pool_post(SecondTask);
}

int main(void) {
  pthread_t A = PostFirst();
  pthread_t B = PostSecond();
  pool_join(A);
  pool_join(B);
  return 0;
}
#endif

// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 AddOne {{.*}}reaches_the_poster_through_a_library.c:42
// CHECK-NEXT:     #1 SecondTask {{.*}}reaches_the_poster_through_a_library.c:49
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 AddOne {{.*}}reaches_the_poster_through_a_library.c:42
// CHECK-NEXT:     #1 FirstTask {{.*}}reaches_the_poster_through_a_library.c:44
// CHECK:        Thread T2 (tid={{[0-9]+}}, running) created by T0 at:
// CHECK-NEXT:     #0 SpawnWorker {{.*}}reaches_the_poster_through_a_library.c:27
// CHECK-NEXT:     #1 pool_post {{.*}}reaches_the_poster_through_a_library.c:32
// CHECK-NEXT:     #2 PostSecond {{.*}}reaches_the_poster_through_a_library.c:56
// CHECK-NEXT:     #3 main {{.*}}reaches_the_poster_through_a_library.c:61
// CHECK-NEXT:   Thread T1 (tid={{[0-9]+}}, {{running|finished}}) created by T0 at:
// CHECK-NEXT:     #0 SpawnWorker {{.*}}reaches_the_poster_through_a_library.c:27
// CHECK-NEXT:     #1 pool_post {{.*}}reaches_the_poster_through_a_library.c:32
// CHECK-NEXT:     #2 PostFirst {{.*}}reaches_the_poster_through_a_library.c:53
// CHECK-NEXT:     #3 main {{.*}}reaches_the_poster_through_a_library.c:60
// CHECK-NEXT: SUMMARY: HybridRace: data race {{.*}}reaches_the_poster_through_a_library.c:42 in AddOne
