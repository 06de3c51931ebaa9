// Table II of seeds/002, I&I Timed (no race): T2 joins T1 before it
// increments X, so T1's increment happens before T2's. T1's read has no
// write dependency (T2's write comes after it); T2's read has one, T1's
// write, ordered before it; main's read after joining T2 has T2's write only
// (T1's happens before it). All deterministic: nothing is reported, and X is
// always 2. (T1 is joined by T2, not by main.)
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t 2>&1 | FileCheck %s --check-prefix=SILENT
// SILENT-NOT: non-deterministic read
// SILENT:     X = 2
// SILENT:     done
// SILENT-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;

static void *First(void *Arg) {
  X++;
  return Arg;
}

static void *Second(void *Arg) {
  pthread_join(*(pthread_t *)Arg, NULL);
  X++;
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, First, NULL);
  pthread_create(&T2, NULL, Second, &T1);
  pthread_join(T2, NULL);
  printf("X = %d\n", X);
  printf("done\n");
  return 0;
}
