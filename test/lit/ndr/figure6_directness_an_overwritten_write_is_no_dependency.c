// seeds/002 figure 6, directness: of two writes where the first happens
// before the second, only the second can be a write dependency. Main writes
// X in one critical section of M, again in the next, and reads it in a
// third: the first write happens before the second (program order across
// epochs), so the read has exactly one write dependency, the second write,
// and is deterministic. The program is single-threaded: nothing reported.
//
// With "racing", T1 also writes X under M, parallel to all of main's
// accesses. The read then has two write dependencies, T1's write and main's
// second write, and still not main's first: that one happens before the
// second, whatever T1 does.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=ndr=1 not %t racing 2>&1 | FileCheck %s
// SILENT-NOT: non-deterministic read
// SILENT:     read 2
// SILENT:     done
// SILENT-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Racer(void *Arg) {
  pthread_mutex_lock(&M);
  X = 3;
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(int Argc, char **Argv) {
  int Racing = Argc > 1;
  pthread_t T1;
  if (Racing)
    pthread_create(&T1, NULL, Racer, NULL);
  pthread_mutex_lock(&M);
  X = 1;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&M);
  X = 2;
  pthread_mutex_unlock(&M);
  pthread_mutex_lock(&M);
  int Seen = X;
  pthread_mutex_unlock(&M);
  // CHECK:      WARNING: HybridRace: non-deterministic read
  // CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: {M1}):
  // CHECK-NEXT:     #0 main {{.*}}figure6_directness_an_overwritten_write_is_no_dependency.c:[[@LINE-4]]
  // CHECK-NEXT:   has 2 write dependencies:
  // CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}), parallel to the read:
  // CHECK-NEXT:       #0 Racer {{.*}}figure6_directness_an_overwritten_write_is_no_dependency.c:[[@LINE-24]]
  // CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T0 (locks held: {M1}):
  // CHECK-NEXT:       #0 main {{.*}}figure6_directness_an_overwritten_write_is_no_dependency.c:[[@LINE-12]]
  // CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}figure6_directness_an_overwritten_write_is_no_dependency.c:[[@LINE-10]] in main
  // CHECK-NOT:  WARNING: HybridRace: non-deterministic read
  if (Racing)
    pthread_join(T1, NULL);
  printf("read %d\n", Seen);
  printf("done\n");
  return 0;
}
