// An error-checking mutex. A thread writes under it; afterwards main calls
// unlock without owning it (EPERM: nothing happens) and relocks it while
// holding it (EDEADLK), then really locks it and reads the data. The failed
// calls must neither release nor acquire: the read is ordered after the
// thread's unlock and nothing is reported.
//
// The invisible signal only makes the thread's critical section come first
// (the interesting schedule); the mutex orders it in any schedule. The
// misuse checker reports both calls (report_misuse=1, the default); the race
// checker alone reports nothing.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb:report_misuse=0 %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s --check-prefix=MISUSE
// CHECK-NOT: HybridRace
// CHECK:     unlock by non-owner: EPERM
// CHECK-NEXT: relock by owner: EDEADLK
// CHECK-NEXT: Data = 42
// CHECK-NOT: HybridRace
// MISUSE: WARNING: HybridRace: unlock of an unlocked mutex
// MISUSE: WARNING: HybridRace: relock of a non-recursive mutex (self-deadlock)
// MISUSE-NOT: data race
// MISUSE: HybridRace: reported 2 warnings

#include "hrace_test_sync.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

int Data;
static pthread_mutex_t Lock;
static int ThreadUnlocked;

static void *Writer(void *Arg) {
  pthread_mutex_lock(&Lock);
  Data = 42;
  pthread_mutex_unlock(&Lock);
  invisible_signal(&ThreadUnlocked);
  return Arg;
}

int main(void) {
  pthread_mutexattr_t Attr;
  pthread_mutexattr_init(&Attr);
  pthread_mutexattr_settype(&Attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&Lock, &Attr);
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  invisible_wait(&ThreadUnlocked);
  if (pthread_mutex_unlock(&Lock) == EPERM)
    printf("unlock by non-owner: EPERM\n");
  pthread_mutex_lock(&Lock);
  if (pthread_mutex_lock(&Lock) == EDEADLK)
    printf("relock by owner: EDEADLK\n");
  printf("Data = %d\n", Data);
  pthread_mutex_unlock(&Lock);
  pthread_join(T, NULL);
  return 0;
}
