// With no report the runtime leaves the exit status alone: a race-free
// program that returns 3 exits with 3, and one that calls exit(5) from a
// thread exits with 5. No final count is printed.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=RETURN
// RUN: env HRACE_OPTIONS=msm=hb sh -c '%t from-thread; echo "exit=$?"' 2>&1 | FileCheck %s --check-prefix=THREAD
// RETURN-NOT: HybridRace
// RETURN:     exit=3
// THREAD-NOT: HybridRace
// THREAD:     exit=5

#include <pthread.h>
#include <stdlib.h>

static void *Exiter(void *Arg) {
  exit(5);
  return Arg;
}

int main(int Argc, char **Argv) {
  (void)Argv;
  if (Argc > 1) {
    pthread_t T;
    pthread_create(&T, NULL, Exiter, NULL);
    pthread_join(T, NULL);
  }
  return 3;
}
