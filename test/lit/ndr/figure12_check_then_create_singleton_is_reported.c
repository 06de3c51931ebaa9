// seeds/002 figure 12: a singleton created on first use with no lock,
// `if (!Instance) Instance = CreateObject();`, in two threads. Each thread's
// read of Instance has the other thread's write as a write dependency,
// parallel to it: null or the other's object, depending on the schedule.
// This is the paper's example of a harmless non-deterministic read (the
// `if` handles both values, at worst one object too many is made), and the
// checker reports it all the same: it cannot tell harmless non-determinism
// from harmful.
//
// Invisible synchronisation lets both threads see null before either
// creates, so that both write. Both threads run GetInstance, so both reads
// are one source location and so are their (parallel) writes: one report,
// for whichever read is found first (T1 or T2, T[[#READER]] below; the write
// is the other thread's). The ordinary race checker reports the race too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct Object {
  int Value;
};
struct Object *Instance;

static __attribute__((noinline)) struct Object *CreateObject(void) {
  struct Object *O = malloc(sizeof(*O));
  O->Value = 42;
  return O;
}

static void *GetInstance(void *Arg) {
  if (!Instance) {
    invisible_barrier_wait();
    Instance = CreateObject();
  }
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 8 at [[ADDR:0x[0-9a-f]+]] by thread T[[#READER:]] (locks held: none):
// CHECK-NEXT:     #0 GetInstance {{.*}}figure12_check_then_create_singleton_is_reported.c:[[@LINE-8]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 8 at [[ADDR]] by thread T[[#3-READER]] (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 GetInstance {{.*}}figure12_check_then_create_singleton_is_reported.c:[[@LINE-9]]
// CHECK:      Location is global 'Instance' of size 8
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}figure12_check_then_create_singleton_is_reported.c:[[@LINE-13]] in GetInstance
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  invisible_barrier_init(2);
  pthread_t T1, T2;
  pthread_create(&T1, NULL, GetInstance, NULL);
  pthread_create(&T2, NULL, GetInstance, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
