// The printf family reads the strings its %s conversions print: a printf
// of a string another thread is writing, unordered, races with that write,
// in every machine. A precision bounds what is read: printing "%.4s" of a
// string whose ninth byte is being written reads only the first four, and
// is silent. The arguments before the string (an int, a double, a width
// taken from the arguments) are stepped over in their sizes.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t whole 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short not %t whole 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=short %t precision 2>&1 | FileCheck %s --check-prefix=PRECISION
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Read of size 13 at [[ADDR:0x[0-9a-f]+]] by thread T0 (locks held: none):
// CHECK-NEXT:     #0 main {{.*}}printf_reads_the_strings_it_prints.c:[[@LINE+31]]
// CHECK-NEXT:   Previous write of size 1 at {{0x[0-9a-f]+}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Writer {{.*}}printf_reads_the_strings_it_prints.c:[[@LINE+16]]
// CHECK:        Location is global 'Name' of size 16 at [[ADDR]]
// PRECISION-NOT: WARNING
// PRECISION:     [hybr]
// PRECISION-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

char Name[16] = "hybrid-race!";
int Written;

static void *Writer(void *Arg) {
  Name[8] = 'R'; // @write
  invisible_signal(&Written);
  return Arg;
}

int main(int Argc, char **Argv) {
  int Bounded = !strcmp(Argv[1], "precision");
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  invisible_wait(&Written);
  if (Bounded)
    printf("%d %5.1f [%.4s]\n", 1, 2.0, Name);
  else
    printf("%d %*.1f [%s]\n", 1, 5, 2.0, Name); // @print
  pthread_join(T, NULL);
  return 0;
}
