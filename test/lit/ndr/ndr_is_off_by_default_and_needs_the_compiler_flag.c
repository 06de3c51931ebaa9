// The checker runs only when asked for twice: the program must be built with
// -fsanitize-hybrid-race-ndr (which makes the pass record what the checker
// needs) and run with ndr=1. The program below has a non-deterministic read
// (R&W Locked: a locked read and a locked write of X in separate critical
// sections), which ndr=1 reports. With the default, or ndr=0, nothing is
// reported. A program built without the flag but run with ndr=1 cannot be
// checked: it says so in one line that names both, and reports nothing.
// Every access holds M, so the ordinary race checker is silent throughout.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 not %t 2>&1 | FileCheck %s --check-prefix=ON
// RUN: %t 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=ndr=0 %t 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %hrace_cc %s -o %t.noflag
// RUN: env HRACE_OPTIONS=ndr=1 %t.noflag > %t.noflag.out 2>&1
// RUN: FileCheck %s --check-prefix=NOFLAG < %t.noflag.out
// RUN: FileCheck %s --check-prefix=NOREPORT < %t.noflag.out
// ON:           WARNING: HybridRace: non-deterministic read
// ON:           SUMMARY: HybridRace: non-deterministic read
// SILENT-NOT:   non-deterministic read
// SILENT:       done
// SILENT-NOT:   non-deterministic read
// NOFLAG:       {{.*}}ndr=1{{.*}}-fsanitize-hybrid-race-ndr
// NOREPORT-NOT: WARNING: HybridRace: non-deterministic read
// NOREPORT:     done
// NOREPORT-NOT: WARNING: HybridRace: non-deterministic read

#include <pthread.h>
#include <stdio.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Reader(void *Arg) {
  pthread_mutex_lock(&M);
  int Seen = X;
  pthread_mutex_unlock(&M);
  return (void *)(long)Seen;
}

static void *Writer(void *Arg) {
  pthread_mutex_lock(&M);
  X = 1;
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
