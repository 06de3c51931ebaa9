// A thread copies a buffer with memcpy while main writes into it. Whether
// the copy stays a call to libc's memcpy (-fno-builtin) or becomes the
// llvm.memcpy intrinsic the pass rewrites, the copy is checked as the
// caller's read of the whole source range and reported at the memcpy line.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s
// RUN: %hrace_cc -fno-builtin %s -o %t.libc
// RUN: env HRACE_OPTIONS=msm=hb not %t.libc 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <string.h>

char Source[32];
char Copy[32];
static int MainWrote;

static void *Copier(void *Arg) {
  invisible_wait(&MainWrote);
  memcpy(Copy, Source, sizeof(Source));
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 32 at [[SRC:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Copier {{.*}}race_in_memcpy.c:[[@LINE-5]]
// CHECK-NEXT:   Previous write of size 1 at 0x{{[0-9a-f]+}} by thread T0 (locks held: none):

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Copier, NULL);
  Source[5] = 'x';
  // CHECK-NEXT:     #0 main {{.*}}race_in_memcpy.c:[[@LINE-1]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is global 'Source' of size 32 at [[SRC]]
  invisible_signal(&MainWrote);
  pthread_join(T, NULL);
  return Copy[5] == 'x' ? 0 : 1;
}
// CHECK: HybridRace: reported 1 warning
