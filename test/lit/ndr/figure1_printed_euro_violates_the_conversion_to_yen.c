// seeds/002 figure 1: two threads convert an amount to Yen through the
// shared Euro, with no lock. Here B starts converting only after A has
// converted (a semaphore), so the reads of Euro inside the two conversions
// are deterministic; but A then reads Euro again, to print the amount it
// converted, and B's write of Euro is parallel to that read. A's own write
// happens before B's (through the semaphore), so directness leaves B's
// write as the one write dependency: non-deterministic. A made the vertical
// correlation 'Euro' -> 'Yen' with `Yen = Euro * 107` and has written
// neither since, so the report names it as violated: A may print 500 Euro
// next to the Yen of 300. (In the literal figure, both conversions in
// parallel, the non-deterministic read is the one in `Yen = Euro * 107`,
// before the store that makes the correlation; that shape is
// unlocked_writes_read_back_are_reported.c.) The ordinary race checker
// reports the race too.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=exitcode=0 %t 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: non-deterministic read
// OFF:     done
// OFF-NOT: non-deterministic read

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

// Volatile, so that -O1 reads Euro back instead of reusing the value stored.
volatile int Euro, Yen;
static sem_t AConverted;

static void *ThreadA(void *Arg) {
  Euro = 300;
  Yen = Euro * 107;
  sem_post(&AConverted);
  int Printed = Euro;
  return (void *)(long)Printed;
}

static void *ThreadB(void *Arg) {
  sem_wait(&AConverted);
  Euro = 500;
  Yen = Euro * 107;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:     #0 ThreadA {{.*}}figure1_printed_euro_violates_the_conversion_to_yen.c:[[@LINE-12]]
// CHECK-NEXT:   has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at [[ADDR]] by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 ThreadB {{.*}}figure1_printed_euro_violates_the_conversion_to_yen.c:[[@LINE-9]]
// CHECK-NEXT:   Violated correlations:
// CHECK-NEXT:     vertical: 'Euro' -> 'Yen' (figure1_printed_euro_violates_the_conversion_to_yen.c:[[@LINE-19]])
// CHECK-NEXT:   Location is global 'Euro' of size 4
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}figure1_printed_euro_violates_the_conversion_to_yen.c:[[@LINE-19]] in ThreadA
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  sem_init(&AConverted, 0, 0);
  pthread_t A, B;
  pthread_create(&A, NULL, ThreadA, NULL);
  pthread_create(&B, NULL, ThreadB, NULL);
  void *Printed;
  pthread_join(A, &Printed);
  pthread_join(B, NULL);
  printf("A printed %ld Euro\n", (long)Printed);
  printf("done\n");
  sem_destroy(&AConverted);
  return 0;
}
