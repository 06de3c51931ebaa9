// A cell whose bytes an access covers is published with a plain store by
// whichever thread changes it, not only by its owner (runtime/hrace_access.h,
// "What a lost update costs"). Here three threads take turns: one writes
// every word, then the other two read them all at the same moment (read/read,
// no race), each read handing the word over from the writer, so one
// reader's update may overwrite the other's. The next round's writer is one
// of those readers, after a barrier that orders both reads before its
// write: whichever update survived, the write must not be reported. The
// writer leaves three values in each granule of the first half, so its
// reads go through byte cells; the second half stays in granule cells.
// 20,000 rounds (short: 1,000) over 1,024 words.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     hand-offs done
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { kThreads = 3, kWords = 1024 };

long Data[kWords];
long Sums[kThreads];
long Rounds;
pthread_barrier_t Barrier;

// A new segment of the calling thread that orders nothing between the
// threads: it takes and releases a mutex of its own.
static void NewOwnSegment(void) {
  static __thread pthread_mutex_t Own = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&Own);
  pthread_mutex_unlock(&Own);
}

// Every word, the first half in three values a granule: byte 0, byte 1 and
// the rest, each in a segment of its own, so its granules stay split.
static void WriteAll(long R) {
  for (int Part = 0; Part < 3; Part++) {
    for (int I = 0; I < kWords / 2; I++) {
      unsigned char *Bytes = (unsigned char *)&Data[I];
      if (Part < 2)
        Bytes[Part] = (unsigned char)R;
      else
        memset(Bytes + 2, (int)R, 6);
    }
    NewOwnSegment();
  }
  for (int I = kWords / 2; I < kWords; I++)
    Data[I] = R + I;
}

static void *Turns(void *Arg) {
  long Me = (long)Arg;
  for (long R = 0; R < Rounds; R++) {
    if (R % kThreads == Me)
      WriteAll(R);
    pthread_barrier_wait(&Barrier);
    if (R % kThreads != Me)
      for (int I = 0; I < kWords; I++)
        Sums[Me] += Data[I];
    pthread_barrier_wait(&Barrier);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  Rounds = Argc > 1 && !strcmp(Argv[1], "full") ? 20000 : 1000;
  pthread_barrier_init(&Barrier, 0, kThreads);
  pthread_t T[kThreads - 1];
  for (long I = 1; I < kThreads; I++)
    pthread_create(&T[I - 1], 0, Turns, (void *)I);
  Turns((void *)0);
  for (long I = 1; I < kThreads; I++)
    pthread_join(T[I - 1], 0);
  printf("hand-offs done\n");
  return 0;
}
