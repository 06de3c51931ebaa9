// Table II of seeds/002, I&W Partial lock (race): only one side holds M. By
// default T1 increments X under M and T2 writes it with no lock; with
// "reverse", T1 increments with no lock and T2 writes under M. Either way
// the read of T1's increment has T2's write as its one write dependency,
// parallel to it: the serialised-updates rule needs both sides to be
// updates under one lock, and freedom needs a write of T1's own before the
// read in its section. The ordinary race checker reports the race too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,INC-LOCKED
// RUN: env HRACE_OPTIONS=ndr=1 not %t reverse 2>&1 | FileCheck %s --check-prefixes=CHECK,WRITE-LOCKED
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

static void *Writer(void *Arg) {
  X = 5;
  return Arg;
}

static void *Incrementer(void *Arg) {
  X++;
  return Arg;
}

static void *LockedWriter(void *Arg) {
  pthread_mutex_lock(&M);
  X = 5;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:              WARNING: HybridRace: non-deterministic read
// INC-LOCKED-NEXT:      Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// INC-LOCKED-NEXT:        #0 LockedIncrementer {{.*}}partially_locked_increment_and_write_is_reported.c:[[@LINE-23]]
// WRITE-LOCKED-NEXT:    Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// WRITE-LOCKED-NEXT:      #0 Incrementer {{.*}}partially_locked_increment_and_write_is_reported.c:[[@LINE-14]]
// CHECK-NEXT:           has 1 write dependency:
// INC-LOCKED-NEXT:        Write of size 4 at [[ADDR]] by thread T2 (locks held: none), parallel to the read:
// INC-LOCKED-NEXT:          #0 Writer {{.*}}partially_locked_increment_and_write_is_reported.c:[[@LINE-22]]
// WRITE-LOCKED-NEXT:      Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// WRITE-LOCKED-NEXT:        #0 LockedWriter {{.*}}partially_locked_increment_and_write_is_reported.c:[[@LINE-13]]
// CHECK:                Location is global 'X' of size 4
// INC-LOCKED:           SUMMARY: HybridRace: non-deterministic read {{.*}}partially_locked_increment_and_write_is_reported.c:[[@LINE-32]] in LockedIncrementer
// WRITE-LOCKED:         SUMMARY: HybridRace: non-deterministic read {{.*}}partially_locked_increment_and_write_is_reported.c:[[@LINE-22]] in Incrementer
// CHECK-NOT:            WARNING: HybridRace: non-deterministic read

int main(int Argc, char **Argv) {
  int Reverse = Argc > 1;
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reverse ? Incrementer : LockedIncrementer, NULL);
  pthread_create(&T2, NULL, Reverse ? LockedWriter : Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
