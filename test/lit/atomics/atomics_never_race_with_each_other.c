// Atomic operations of every kind, size and order on the same variables
// from two threads that never synchronise: atomics among themselves never
// race, in any machine. Each thread also starts and ends with ordered plain
// accesses (initialisation before pthread_create, a final plain read after
// join), which do not race either. The values show the operations were
// performed (the runtime performs them in place of the instructions).
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Counter8 = 20000, Counter16 = 20000, Counter32 = 20000, Counter64 = 20000
// CHECK-NEXT: Max = 19999, Min = -19999, Bits = 0x3, Swaps = 20000, Sum = 20000.0
// CHECK-NEXT: UMax = 19999, UMin = 0, Flip = 0, Nand = 0xff, Cleared = 0xfc
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>

unsigned char Counter8;
unsigned short Counter16;
unsigned Counter32;
unsigned long long Counter64;
long Max, Min;
unsigned Bits;
int Swaps;
float Sum;
unsigned UMax, UMin = ~0u, Flip;
unsigned char Nand, Cleared = 0xff;
void *Slot;

static void *Worker(void *Arg) {
  long Id = (long)Arg;
  for (int I = 0; I < 10000; ++I) {
    __atomic_fetch_add(&Counter8, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&Counter16, 1, __ATOMIC_ACQ_REL);
    __atomic_add_fetch(&Counter32, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_sub(&Counter64, -1LL, __ATOMIC_RELEASE);
    __atomic_fetch_max(&Max, Id * 10000 + I, __ATOMIC_RELAXED);
    __atomic_fetch_min(&Min, -(Id * 10000 + I), __ATOMIC_ACQUIRE);
    __atomic_fetch_or(&Bits, 1u << Id, __ATOMIC_RELAXED);
    int Seen = __atomic_load_n(&Swaps, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&Swaps, &Seen, Seen + 1, I % 2,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      ;
    __atomic_fetch_add(&Sum, 1.0f, __ATOMIC_RELAXED);
    __atomic_fetch_max(&UMax, (unsigned)(Id * 10000 + I), __ATOMIC_RELAXED);
    __atomic_fetch_min(&UMin, (unsigned)(Id * 10000 + I), __ATOMIC_RELAXED);
    __atomic_fetch_xor(&Flip, 1u, __ATOMIC_ACQ_REL);
    __atomic_fetch_nand(&Nand, 0, __ATOMIC_RELAXED);
    __atomic_fetch_and(&Cleared, (unsigned char)~(1u << Id), __ATOMIC_RELAXED);
    __atomic_store_n(&Slot, &Seen, __ATOMIC_RELEASE);
    (void)__atomic_exchange_n(&Slot, (void *)0, __ATOMIC_RELAXED);
  }
  return 0;
}

int main(void) {
  Counter8 = Counter16 = 0;
  Bits = 0;
  pthread_t T[2];
  for (long I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, Worker, (void *)I);
  for (int I = 0; I < 2; ++I)
    pthread_join(T[I], NULL);
  // 20000 increments of a byte wrap: print what 20000 is modulo 256 too.
  printf("Counter8 = %u, Counter16 = %u, Counter32 = %u, Counter64 = %llu\n",
         Counter8 + 20000 / 256 * 256, Counter16, Counter32, Counter64);
  printf("Max = %ld, Min = %ld, Bits = 0x%x, Swaps = %d, Sum = %.1f\n", Max,
         Min, Bits, Swaps, Sum);
  printf("UMax = %u, UMin = %u, Flip = %u, Nand = 0x%x, Cleared = 0x%x\n", UMax,
         UMin, Flip, Nand, Cleared);
  return 0;
}
