// exitcode=N replaces the default 66 as the status of a process that
// reported a race; main's own return value 0 is overridden.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb:exitcode=3 sh -c '%t; echo "exit=$?"' 2>&1 | FileCheck %s

#include <pthread.h>

int Global;

static void *Thread1(void *Arg) {
  Global = 1;
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  Global = 2;
  pthread_join(T, NULL);
  return 0;
}
// CHECK: WARNING: HybridRace: data race
// CHECK: HybridRace: reported 1 warning
// CHECK-NEXT: exit=3
