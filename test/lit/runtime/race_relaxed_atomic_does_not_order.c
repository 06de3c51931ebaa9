// Data published through a flag stored and loaded with memory_order_relaxed:
// relaxed atomics create no happens-before edge, so the plain accesses to
// the data race. The flag itself is atomic and never reported.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

int Data;
atomic_int Ready;

static void *Producer(void *Arg) {
  Data = 42;
  atomic_store_explicit(&Ready, 1, memory_order_relaxed);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Producer, NULL);
  while (!atomic_load_explicit(&Ready, memory_order_relaxed))
    sched_yield();
  printf("Data = %d\n", Data);
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_relaxed_atomic_does_not_order.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Producer {{.*}}race_relaxed_atomic_does_not_order.c:[[@LINE-15]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is global 'Data' of size 4 at [[ADDR]]
  // CHECK-NOT:  Ready
  // CHECK:      HybridRace: reported 1 warning
  pthread_join(T, NULL);
  return 0;
}
