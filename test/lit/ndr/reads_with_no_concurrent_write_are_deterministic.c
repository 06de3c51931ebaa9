// Table II of seeds/002, R&R (no race): two threads only read. Main wrote X
// once, before creating them, so that write happens before both reads and
// is the only write dependency of each; Y has only its static initialiser,
// which is no write, so its reads have no write dependency at all. Main's
// own reads after the joins depend on its own write only. Every read is
// deterministic: nothing is reported.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t 2>&1 | FileCheck %s --check-prefix=SILENT
// SILENT-NOT: non-deterministic read
// SILENT:     sums 12 12, X=5 Y=7
// SILENT:     done
// SILENT-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;
int Y = 7;

static void *Reader(void *Arg) {
  int Sum = X;
  Sum += Y;
  return (void *)(long)Sum;
}

int main(void) {
  X = 5;
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Reader, NULL);
  void *Sum1, *Sum2;
  pthread_join(T1, &Sum1);
  pthread_join(T2, &Sum2);
  printf("sums %ld %ld, X=%d Y=%d\n", (long)Sum1, (long)Sum2, X, Y);
  printf("done\n");
  return 0;
}
