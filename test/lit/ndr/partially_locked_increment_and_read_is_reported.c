// Table II of seeds/002, I&R Partial lock (race): only one side holds M.
// By default T1 increments X under M and T2 reads it with no lock; with
// "reverse", T1 increments with no lock and T2 reads under M. Either way
// T2's read has T1's increment as its one write dependency, parallel to it,
// and the report shows which side held the lock. The ordinary race checker
// reports the race too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,INC-LOCKED
// RUN: env HRACE_OPTIONS=ndr=1 not %t reverse 2>&1 | FileCheck %s --check-prefixes=CHECK,READ-LOCKED
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: env HRACE_OPTIONS=exitcode=0 %t reverse 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *LockedIncrementer(void *Arg) {
  pthread_mutex_lock(&M);
  X++;
  pthread_mutex_unlock(&M);
  return Arg;
}

static void *Reader(void *Arg) {
  int Seen = X;
  return (void *)(long)Seen;
}

static void *Incrementer(void *Arg) {
  X++;
  return Arg;
}

static void *LockedReader(void *Arg) {
  pthread_mutex_lock(&M);
  int Seen = X;
  pthread_mutex_unlock(&M);
  return (void *)(long)Seen;
}
// CHECK:             WARNING: HybridRace: non-deterministic read
// INC-LOCKED-NEXT:     Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T2 (locks held: none):
// INC-LOCKED-NEXT:       #0 Reader {{.*}}partially_locked_increment_and_read_is_reported.c:[[@LINE-17]]
// READ-LOCKED-NEXT:    Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T2 (locks held: {M1}):
// READ-LOCKED-NEXT:      #0 LockedReader {{.*}}partially_locked_increment_and_read_is_reported.c:[[@LINE-8]]
// CHECK-NEXT:          has 1 write dependency:
// INC-LOCKED-NEXT:       Write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}), parallel to the read:
// INC-LOCKED-NEXT:         #0 LockedIncrementer {{.*}}partially_locked_increment_and_read_is_reported.c:[[@LINE-28]]
// READ-LOCKED-NEXT:      Write of size 4 at [[ADDR]] by thread T1 (locks held: none), parallel to the read:
// READ-LOCKED-NEXT:        #0 Incrementer {{.*}}partially_locked_increment_and_read_is_reported.c:[[@LINE-19]]
// CHECK:               Location is global 'X' of size 4
// INC-LOCKED:          SUMMARY: HybridRace: non-deterministic read {{.*}}partially_locked_increment_and_read_is_reported.c:[[@LINE-26]] in Reader
// READ-LOCKED:         SUMMARY: HybridRace: non-deterministic read {{.*}}partially_locked_increment_and_read_is_reported.c:[[@LINE-16]] in LockedReader
// CHECK-NOT:           WARNING: HybridRace: non-deterministic read

int main(int Argc, char **Argv) {
  int Reverse = Argc > 1;
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reverse ? Incrementer : LockedIncrementer, NULL);
  pthread_create(&T2, NULL, Reverse ? LockedReader : Reader, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
