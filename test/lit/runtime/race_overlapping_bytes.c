// Cells are per byte: a 2-byte write and a 4-byte read that share one byte
// race, and the report gives each access's own address and size; the same
// pair of accesses one byte apart (adjacent, not overlapping) is silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdint.h>

typedef uint16_t __attribute__((aligned(1), may_alias)) U16;
typedef uint32_t __attribute__((may_alias)) U32;

_Alignas(8) unsigned char Overlap[8];
_Alignas(8) unsigned char Adjacent[8];
static int ThreadWrote;

static void *Writer(void *Arg) {
  *(U16 *)(Overlap + 3) = 0xffff; // bytes 3 and 4
  *(U16 *)(Adjacent + 4) = 0xffff; // bytes 4 and 5
  invisible_signal(&ThreadWrote);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  invisible_wait(&ThreadWrote);
  uint32_t Sum = *(U32 *)Overlap; // bytes 0 to 3
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Read of size 4 at 0x[[#%x,BASE:]] by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_overlapping_bytes.c:[[@LINE-3]]
  // CHECK-NEXT:   Previous write of size 2 at 0x[[#%x,BASE+3]] by thread T1 (locks held: none):
  // CHECK-NEXT:     #0 Writer {{.*}}race_overlapping_bytes.c:[[@LINE-15]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is global 'Overlap' of size 8 at 0x[[#%x,BASE]]
  Sum += *(U32 *)Adjacent; // bytes 0 to 3
  // CHECK-NOT:  WARNING: HybridRace
  // CHECK:      HybridRace: reported 1 warning
  pthread_join(T, NULL);
  return Sum == 0xff000000u ? 0 : 1;
}
