// Standalone fences (C11 7.17.4): a release fence before a relaxed store and
// an acquire fence after a relaxed load that read it order what comes before
// the first fence before what comes after the second. Silent in every
// machine. The same program without the acquire fence races (second run:
// the consumer skips it), as it does without either fence.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s --check-prefix=FENCED
// RUN: env HRACE_OPTIONS=msm=short %t 2>&1 | FileCheck %s --check-prefix=FENCED
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s --check-prefix=FENCED
// RUN: env HRACE_OPTIONS=msm=hb not %t no-acquire-fence 2>&1 | FileCheck %s --check-prefix=UNFENCED
// RUN: env HRACE_OPTIONS=msm=short not %t no-acquire-fence 2>&1 | FileCheck %s --check-prefix=UNFENCED
// FENCED-NOT: HybridRace
// FENCED:     Data = 42
// FENCED-NOT: HybridRace
// UNFENCED:   WARNING: HybridRace: data race
// UNFENCED:     #0 main {{.*}}fences_order_relaxed_accesses.c:[[@LINE+27]]
// UNFENCED:   Previous write of size 4
// UNFENCED:     #0 Producer {{.*}}fences_order_relaxed_accesses.c:[[@LINE+11]]

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

int Data;
atomic_int Ready;

static void *Producer(void *Arg) {
  Data = 42; // @write
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&Ready, 1, memory_order_relaxed);
  return Arg;
}

int main(int Argc, char **Argv) {
  int AcquireFence = Argc < 2;
  pthread_t T;
  pthread_create(&T, NULL, Producer, NULL);
  while (!atomic_load_explicit(&Ready, memory_order_relaxed))
    sched_yield();
  if (AcquireFence)
    atomic_thread_fence(memory_order_acquire);
  printf("Data = %d\n", Data); // @read
  pthread_join(T, NULL);
  return 0;
}
