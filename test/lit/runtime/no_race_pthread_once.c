// Two threads call pthread_once with the same control and then read what
// the init routine wrote. Whichever thread runs the routine, the other
// returns from pthread_once ordered after it. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     inits = 1, sum = 14
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

static pthread_once_t Once = PTHREAD_ONCE_INIT;
static int Settings[2];
static int Inits;

static void Init(void) {
  Settings[0] = 3;
  Settings[1] = 4;
  Inits = Inits + 1;
}

static void *User(void *Arg) {
  pthread_once(&Once, Init);
  return (void *)(long)(Settings[0] + Settings[1]);
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, User, NULL);
  pthread_create(&B, NULL, User, NULL);
  void *RA, *RB;
  pthread_join(A, &RA);
  pthread_join(B, &RB);
  printf("inits = %d, sum = %ld\n", Inits, (long)RA + (long)RB);
  return 0;
}
