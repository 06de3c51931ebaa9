// Table II of seeds/002, R&W Locked (race): every access to X holds M, each
// in a critical section of its own. The ordinary race checker sees X
// consistently locked and is silent, but which value T1 reads depends on
// which section runs first. Locks order nothing, so T2's write is parallel
// to the read; freedom does not drop it, as T1 did not write X in its
// section. One write dependency, parallel: non-deterministic. The checker
// is off by default.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Reader(void *Arg) {
  pthread_mutex_lock(&M);
  int Seen = X;
  pthread_mutex_unlock(&M);
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  pthread_mutex_lock(&M);
  X = 1;
  pthread_mutex_unlock(&M);
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 Reader {{.*}}locked_read_and_write_in_separate_sections_is_reported.c:[[@LINE-13]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: {M1}), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}locked_read_and_write_in_separate_sections_is_reported.c:[[@LINE-9]]
// CHECK:      Location is global 'X' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}locked_read_and_write_in_separate_sections_is_reported.c:[[@LINE-18]] in Reader
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
