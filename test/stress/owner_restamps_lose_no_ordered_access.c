// A location exclusive to its owner is re-stamped with plain stores when the
// owner reads it in a new segment (runtime/hrace_access.h, StaysWithOwner).
// Here another thread reads the same words at the same moment (read/read,
// no race), so some of its updates are overwritten. Then a barrier orders
// both reads before a write by one thread or the other: whichever update
// survived, the write must not be reported. 20,000 rounds (short: 1,000)
// over 1,024 words.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     owner re-stamps done
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { kWords = 1024 };

static pthread_barrier_t B;
static long Rounds;
long Data[kWords];
long Sums[2];

static void *Work(void *Arg) {
  long Me = (long)Arg;
  // Each thread's own mutex: taking it starts a new segment of the thread
  // and orders nothing between the threads.
  pthread_mutex_t Own = PTHREAD_MUTEX_INITIALIZER;
  long Sum = 0;
  for (long R = 0; R < Rounds; R++) {
    pthread_mutex_lock(&Own);
    pthread_mutex_unlock(&Own);
    // Both threads read every word at once; the round's writer owns them.
    for (int I = 0; I < kWords; I++)
      Sum += Data[I];
    pthread_barrier_wait(&B);
    // Ordered after both reads: the writer alternates, so each round's
    // owner is the thread that wrote last.
    if ((R & 1) == Me)
      for (int I = 0; I < kWords; I++)
        Data[I] = R + I;
    pthread_barrier_wait(&B);
  }
  Sums[Me] = Sum;
  return 0;
}

int main(int Argc, char **Argv) {
  Rounds = Argc > 1 && !strcmp(Argv[1], "full") ? 20000 : 1000;
  pthread_barrier_init(&B, 0, 2);
  pthread_t T;
  pthread_create(&T, 0, Work, (void *)1);
  Work((void *)0);
  pthread_join(T, 0);
  printf("owner re-stamps done\n");
  return 0;
}
