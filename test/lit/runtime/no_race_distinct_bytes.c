// Detection is byte-precise: two threads writing neighbouring bytes never
// race. Each thread writes its own characters of one array (interleaved
// even and odd bytes), its own members of a struct packed into eight bytes
// (char, char, short, int), and its own half of a buffer through memset,
// all with no synchronisation. Silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     Flags = 0101, A = 1, B = 2, C = 3, D = 4, Buffer = 12
// CHECK-NOT: HybridRace

#include <pthread.h>
#include <stdio.h>
#include <string.h>

char Flags[64];
struct Packed {
  char A;
  char B;
  short C;
  int D;
} Fields;
char Buffer[32];

static void *Odd(void *Arg) {
  for (int Round = 0; Round < 20; ++Round)
    for (int I = 1; I < 64; I += 2)
      Flags[I] = '1';
  for (int I = 0; I < 20; ++I) {
    Fields.B = 2;
    Fields.D = 4;
  }
  memset(Buffer + 16, '2', 16);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Odd, NULL);
  for (int Round = 0; Round < 20; ++Round)
    for (int I = 0; I < 64; I += 2)
      Flags[I] = '0';
  for (int I = 0; I < 20; ++I) {
    Fields.A = 1;
    Fields.C = 3;
  }
  memset(Buffer, '1', 16);
  pthread_join(T, NULL);
  printf("Flags = %.4s, A = %d, B = %d, C = %d, D = %d, Buffer = %c%c\n",
         Flags, Fields.A, Fields.B, Fields.C, Fields.D, Buffer[0],
         Buffer[31]);
  return 0;
}
