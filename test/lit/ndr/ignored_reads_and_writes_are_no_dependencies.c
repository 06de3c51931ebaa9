// Accesses a thread makes while it ignores them (ANNOTATE_IGNORE_READS,
// ANNOTATE_IGNORE_WRITES) are not seen by the non-deterministic read
// checker either. T1 reads X, Y and Z while T2 writes them, nothing
// ordering the two, after main wrote each before creating them:
//   X: T1's read is ignored: no read to check;
//   Z: T2's write is ignored: main's write, which happens before the read,
//      is its only dependency, and the read is deterministic;
//   Y: nothing ignored: T2's write is parallel to the read, which is
//      reported, as unlocked_read_and_write_is_reported.c shows.
// The ordinary race checker reports Y too (hence `not`).
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=IGNORED < %t.out
// IGNORED-NOT: global 'X'
// IGNORED-NOT: global 'Z'

#include <hrace/annotations.h>
#include <pthread.h>
#include <stdio.h>

int X, Y, Z;

static void *Reader(void *Arg) {
  ANNOTATE_IGNORE_READS_BEGIN();
  int Seen = X;
  ANNOTATE_IGNORE_READS_END();
  Seen += Y;
  Seen += Z;
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  X = 2;
  Y = 2;
  ANNOTATE_IGNORE_WRITES_BEGIN();
  Z = 2;
  ANNOTATE_IGNORE_WRITES_END();
  return Arg;
}

// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Reader
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Writer
// CHECK:      Location is global 'Y' of size 4
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  X = Y = Z = 1;
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
