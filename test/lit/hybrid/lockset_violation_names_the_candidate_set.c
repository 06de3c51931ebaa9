// A counter that two threads update under M becomes Shared-Modified with
// candidate lock set {M1}. When main then writes it without any lock and
// without being ordered after the threads, the candidate set runs empty:
// msm=short reports, naming the set that ran empty and the locks this access
// held. msm=long only notes the suspicion (Exclusive-Read-Write): the pattern
// happens once.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s --allow-empty --check-prefix=LONG
// LONG-NOT: WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>

int Counter;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static int FirstDone, SecondDone;

static void *Increment(void *Arg) {
  int *Turn = Arg;
  if (Turn == &SecondDone)
    invisible_wait(&FirstDone);
  pthread_mutex_lock(&M);
  Counter++;
  pthread_mutex_unlock(&M);
  invisible_signal(Turn);
  return NULL;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, Increment, &FirstDone);
  pthread_create(&B, NULL, Increment, &SecondDone);
  invisible_wait(&SecondDone);
  Counter = 0;
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Write of size 4 at {{.*}} by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}lockset_violation_names_the_candidate_set.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous {{read|write}} of size 4 at {{.*}} by thread T2 (locks held: {M1}):
  // CHECK-NEXT:     #0 Increment {{.*}}lockset_violation_names_the_candidate_set.c:25
  // CHECK-NEXT:   Detected by msm=short: the candidate lock set {M1} of this shared location ran empty: this access holds none and does not happen after the access the location remembers.
  pthread_join(A, NULL);
  pthread_join(B, NULL);
  return 0;
}
