// A granule holds two variables: four bytes read one at a time and a word
// stored atomically. Each round the main thread writes both plainly
// (holding no lock); then, ordered after it by a barrier, one thread reads
// the bytes one by one while another stores every word atomically, at the
// same moment. An atomic store ordered after a plain write leaves the word
// atomic and forgets the write. The storer then sets a flag under a mutex,
// and a fourth thread, which polls the flag under the mutex and learns
// nothing else of the round (precise=0: no write/read relation orders it),
// stores every word atomically. Nothing races, so a report is false.
// Each byte read moves the byte from the main thread's cell to the
// reader's, a change of both cells of the granule. Only where every byte of
// the granule is New or the thread's own in its current segment may that
// change be one plain store (runtime/hrace_access.h, PairStoredPlainly):
// here the reader's store would bring the forgotten write back over the
// concurrent atomic store, and the poller's stores would meet it.
// 3,000 rounds (short: 200) over 1,024 granules.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=precise=0 %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=precise=0:msm=long %t %scale 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t %scale 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     byte rounds done
// CHECK-NOT: WARNING: HybridRace

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

enum { kGranules = 1024 };

struct Granule {
  unsigned char Bytes[4];
  unsigned Word;
} __attribute__((aligned(8)));

struct Granule Data[kGranules];
long Rounds;
long Sum;
long Flag;
pthread_mutex_t FlagLock = PTHREAD_MUTEX_INITIALIZER;
// The writer, the reader and the storer; all four at the end of a round.
pthread_barrier_t Written, RoundDone;

static void *Reader(void *Arg) {
  (void)Arg;
  for (long R = 0; R < Rounds; R++) {
    pthread_barrier_wait(&Written);
    for (int I = 0; I < kGranules; I++)
      for (int B = 0; B < 4; B++)
        Sum += Data[I].Bytes[B];
    pthread_barrier_wait(&RoundDone);
  }
  return 0;
}

static void *Storer(void *Arg) {
  (void)Arg;
  for (long R = 0; R < Rounds; R++) {
    pthread_barrier_wait(&Written);
    for (int I = 0; I < kGranules; I++)
      __atomic_store_n(&Data[I].Word, (unsigned)R, __ATOMIC_RELAXED);
    pthread_mutex_lock(&FlagLock);
    Flag = R + 1;
    pthread_mutex_unlock(&FlagLock);
    pthread_barrier_wait(&RoundDone);
  }
  return 0;
}

static void *Poller(void *Arg) {
  (void)Arg;
  for (long R = 0; R < Rounds; R++) {
    for (;;) {
      pthread_mutex_lock(&FlagLock);
      long Seen = Flag;
      pthread_mutex_unlock(&FlagLock);
      if (Seen == R + 1)
        break;
      sched_yield();
    }
    for (int I = 0; I < kGranules; I++)
      __atomic_store_n(&Data[I].Word, (unsigned)-R, __ATOMIC_RELAXED);
    pthread_barrier_wait(&RoundDone);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  Rounds = Argc > 1 && !strcmp(Argv[1], "full") ? 3000 : 200;
  pthread_barrier_init(&Written, 0, 3);
  pthread_barrier_init(&RoundDone, 0, 4);
  pthread_t T[3];
  pthread_create(&T[0], 0, Reader, 0);
  pthread_create(&T[1], 0, Storer, 0);
  pthread_create(&T[2], 0, Poller, 0);
  for (long R = 0; R < Rounds; R++) {
    for (int I = 0; I < kGranules; I++) {
      memset(Data[I].Bytes, (int)R, sizeof(Data[I].Bytes));
      Data[I].Word = (unsigned)(R + I);
    }
    pthread_barrier_wait(&Written);
    pthread_barrier_wait(&RoundDone);
  }
  for (int I = 0; I < 3; I++)
    pthread_join(T[I], 0);
  printf("byte rounds done\n");
  return 0;
}
