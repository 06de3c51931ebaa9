// Two threads write one global with nothing ordering them. Pins down the
// whole report: both accesses (kind, size, address, thread, locks, line),
// the msm that found it, the global's name, both threads with T1's creation
// stack, the SUMMARY line and the final count. The program runs to its end
// (its output is printed) but exits with 66, the default exitcode, although
// main returns 0.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb sh -c '%t 2>/dev/null; echo "exit=$?"' | FileCheck --check-prefix=STATUS %s
// STATUS:      main returns 0
// STATUS-NEXT: exit=66

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int Global;
static int MainWrote, Reported;

static void *Thread1(void *Arg) {
  invisible_wait(&MainWrote);
  Global = 1;
  invisible_signal(&Reported);
  return Arg;
}
// CHECK:      ==================
// CHECK-NEXT: WARNING: HybridRace: data race (pid={{[0-9]+}})
// CHECK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Thread1 {{.*}}race_two_threads_write_global.c:[[#WLINE:@LINE-7]]:10
// CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T0 (locks held: none):

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  Global = 2;
  // CHECK-NEXT:     #0 main {{.*}}race_two_threads_write_global.c:[[@LINE-1]]:10
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is global 'Global' of size 4 at [[ADDR]] ({{.*}}+0x{{[0-9a-f]+}})
  // CHECK-NEXT:   Thread T1 (tid={{[0-9]+}}, running) created by T0 at:
  // CHECK-NEXT:     #0 main {{.*}}race_two_threads_write_global.c:[[@LINE-6]]:3
  // CHECK-NEXT:   Thread T0 (tid={{[0-9]+}}, running) is the main thread
  // CHECK-NEXT: SUMMARY: HybridRace: data race {{.*}}race_two_threads_write_global.c:[[#WLINE]] in Thread1
  // CHECK-NEXT: ==================
  invisible_signal(&MainWrote);
  invisible_wait(&Reported);
  pthread_join(T, NULL);
  printf("main returns 0\n");
  return 0;
}
// CHECK:      HybridRace: reported 1 warning
// CHECK-NOT:  WARNING: HybridRace
