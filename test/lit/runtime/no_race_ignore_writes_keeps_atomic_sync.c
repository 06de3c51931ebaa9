// ANNOTATE_IGNORE_WRITES_BEGIN/END stop the checking of the thread's
// writes, not its synchronisation: a release store made inside the ignored
// region still publishes the data written before it, so the consumer's
// acquire load orders its read of the data. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Data = 42
// CHECK-NOT: HybridRace

#include <hrace/annotations.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

int Data;
static atomic_int Ready;

static void *Producer(void *Arg) {
  Data = 42;
  ANNOTATE_IGNORE_WRITES_BEGIN();
  atomic_store_explicit(&Ready, 1, memory_order_release);
  ANNOTATE_IGNORE_WRITES_END();
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Producer, NULL);
  while (!atomic_load_explicit(&Ready, memory_order_acquire))
    sched_yield();
  printf("Data = %d\n", Data);
  pthread_join(T, NULL);
  return 0;
}
