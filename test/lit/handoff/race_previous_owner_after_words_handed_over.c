// Words handed over through a semaphore become the taker's: the taker's
// reads are ordered after the owner's writes (no report), and the previous
// owner's next write, which the taker's read does not happen before, races
// with that read, on that word alone. The taker reads each word once, so
// each read takes the word over from its owner (the row "TS hb cur" of
// every machine) and must record the taker as the location's last reader.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=long not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=hb not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,HB
// RUN: env HRACE_OPTIONS=msm=hb not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,HB

#include "hrace_test_sync.h"
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

long Words[4];
static sem_t Handed;
static int TakerRead;
static long Sum;

static void *Owner(void *Arg) {
  for (int I = 0; I < 4; I++)
    Words[I] = I + 1;
  sem_post(&Handed);
  invisible_wait(&TakerRead);
  Words[2] = 30;
  return Arg;
}

// One 8-byte read per word at -O2 too (a loop would be vectorised).
static __attribute__((noinline)) long TakeWord(int I) { return Words[I]; }

static void *Taker(void *Arg) {
  sem_wait(&Handed);
  for (int I = 0; I < 4; I++)
    Sum += TakeWord(I);
  invisible_signal(&TakerRead);
  return Arg;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 8 at 0x[[#%x,WORD2:]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Owner {{.*}}race_previous_owner_after_words_handed_over.c:30
// CHECK-NEXT:   Previous read of size 8 at 0x[[#%x,WORD2]] by thread T2 (locks held: none):
// CHECK-NEXT:     #0 TakeWord {{.*}}race_previous_owner_after_words_handed_over.c:35
// CHECK-NEXT:     #1 Taker {{.*}}race_previous_owner_after_words_handed_over.c:40
// SHORT-NEXT:   Detected by msm=short:
// LONG-NEXT:    Detected by msm=long:
// HB-NEXT:      Detected by msm=hb:
// CHECK-NEXT:   Location is global 'Words' of size 32 at 0x[[#%x,WORD2-16]]
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      sum 10
// CHECK-NEXT: HybridRace: reported 1 warning

int main(void) {
  sem_init(&Handed, 0, 0);
  pthread_t T[2];
  pthread_create(&T[0], NULL, Owner, NULL);
  pthread_create(&T[1], NULL, Taker, NULL);
  for (int I = 0; I < 2; I++)
    pthread_join(T[I], NULL);
  printf("sum %ld\n", Sum);
  sem_destroy(&Handed);
  return 0;
}
