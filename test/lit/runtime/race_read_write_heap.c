// A field of a heap block written by main and read by a thread, unordered:
// the report is a Read against a Previous write, and the location names the
// heap block with its size and the byte's offset in it (which identifies the
// field), instead of a bare address.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdlib.h>

struct Record {
  int Id;
  int Pad[2];
  int Value; // offset 12
  long Tail[3];
}; // 40 bytes

static struct Record *Shared;
static int MainWrote, Reported;

static void *Reader(void *Arg) {
  invisible_wait(&MainWrote);
  long V = Shared->Value;
  invisible_signal(&Reported);
  return (void *)V;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader {{.*}}race_read_write_heap.c:[[@LINE-6]]
// CHECK-NEXT:   Previous write of size 4 at [[ADDR]] by thread T0 (locks held: none):

int main(void) {
  Shared = calloc(1, sizeof(struct Record));
  pthread_t T;
  pthread_create(&T, NULL, Reader, NULL);
  Shared->Value = 7;
  // CHECK-NEXT:     #0 main {{.*}}race_read_write_heap.c:[[@LINE-1]]
  // CHECK-NEXT:   Detected by msm=hb: neither access happens before the other.
  // CHECK-NEXT:   Location is heap block of size 40 at 0x{{[0-9a-f]+}}, offset 12
  invisible_signal(&MainWrote);
  invisible_wait(&Reported);
  pthread_join(T, NULL);
  free(Shared);
  return 0;
}
