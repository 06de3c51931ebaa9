// strlen in one thread reads the string while another thread overwrites one
// of its characters: the interceptor checks every byte strlen read (length
// plus the terminator) as a read at the caller's line, so a write to the
// middle of the string races with it.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <string.h>

char Name[16] = "abcdef";
static int MainWrote;

static void *Measure(void *Arg) {
  invisible_wait(&MainWrote);
  return (void *)strlen(Name);
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 7 at 0x[[#%x,NAME:]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Measure {{.*}}race_strlen_vs_write.c:[[@LINE-4]]
// CHECK-NEXT:   Previous write of size 1 at 0x[[#%x,NAME+3]] by thread T0 (locks held: none):

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Measure, NULL);
  Name[3] = 'X';
  // CHECK-NEXT:     #0 main {{.*}}race_strlen_vs_write.c:[[@LINE-1]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is global 'Name' of size 16 at 0x[[#%x,NAME]]
  invisible_signal(&MainWrote);
  void *Len;
  pthread_join(T, &Len);
  return Len == (void *)6 ? 0 : 1;
}
