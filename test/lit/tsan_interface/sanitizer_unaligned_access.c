// __sanitizer_unaligned_load/store16/32/64 move the value and check the
// access: an unaligned 32-bit store in one thread and an overlapping
// unaligned 64-bit load in another race; a load of the bytes next to the
// store does not.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t overlap 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: %t apart 2>&1 | FileCheck %s --check-prefix=APART
// OVERLAP:      WARNING: HybridRace: data race
// OVERLAP-NEXT:   Read of size 8 at [[ADDR:0x[0-9a-f]+]] by thread T2
// OVERLAP:        Previous write of size 4 at {{0x[0-9a-f]+}} by thread T1
// OVERLAP:      loaded 0x
// APART-NOT:    WARNING: HybridRace
// APART:        loaded 0x
// APART-NOT:    WARNING: HybridRace

#include "hrace_test_sync.h"
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

char Buffer[32];
static int Stored, Apart;

static void *Store(void *Arg) {
  (void)Arg;
  __sanitizer_unaligned_store32(Buffer + 3, 0x11223344u);
  __sanitizer_unaligned_store16(Buffer + 20, 0x5566);
  invisible_signal(&Stored);
  return 0;
}

static void *Load(void *Arg) {
  (void)Arg;
  invisible_wait(&Stored);
  // "overlap": bytes 1..8 take in the store's 3..6; "apart": bytes 7..14.
  uint64_t V = __sanitizer_unaligned_load64(Buffer + (Apart ? 7 : 1));
  printf("loaded 0x%llx\n", (unsigned long long)V);
  return 0;
}

int main(int Argc, char **Argv) {
  Apart = Argc > 1 && !strcmp(Argv[1], "apart");
  pthread_t A, B;
  pthread_create(&A, 0, Store, 0);
  pthread_create(&B, 0, Load, 0);
  pthread_join(A, 0);
  pthread_join(B, 0);
  return 0;
}
