// called_from_lib:NAME ignores the memory accesses interceptors make for
// calls from an uninstrumented library whose path matches NAME (here its
// memset into a shared buffer, unordered between two threads): the race
// is reported without the line and not with it. The library's
// synchronisation still counts.
//
// UNSUPPORTED: aarch64
// RUN: %clang -g -O1 -fPIC -shared -DBUILD_LIB %s -o %t-fill.so
// RUN: %hrace_cc %s %t-fill.so -o %t
// RUN: not %t 2>&1 | FileCheck %s --check-prefix=REPORTED
// REPORTED: WARNING: HybridRace: data race
// REPORTED: Write of size 64 at {{.*}} by thread T0
// REPORTED: #0 fill_buffer {{.*}}called_from_lib_ignores_a_librarys_accesses.c:[[@LINE+17]]
//
// RUN: echo 'called_from_lib:-fill.so' > %t.supp
// RUN: env HRACE_OPTIONS=suppressions=%t.supp %t 2>&1 | FileCheck %s --check-prefix=IGNORED --allow-empty
// IGNORED-NOT: HybridRace
//
// A pattern that names another library leaves the race reported.
// RUN: echo 'called_from_lib:libother.so' > %t.other
// RUN: env HRACE_OPTIONS=suppressions=%t.other not %t 2>&1 | FileCheck %s --check-prefix=REPORTED

#include <pthread.h>
#include <string.h>

void fill_buffer(char *Buffer, int Value, size_t Size);

#ifdef BUILD_LIB
void fill_buffer(char *Buffer, int Value, size_t Size) {
  memset(Buffer, Value, Size);
}
#else
#include "hrace_test_sync.h"

static char Buffer[64];
static int FirstFilled;

static void *Worker(void *Arg) {
  fill_buffer(Buffer, 1, sizeof(Buffer));
  invisible_signal(&FirstFilled);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Worker, NULL);
  invisible_wait(&FirstFilled);
  fill_buffer(Buffer, 2, sizeof(Buffer));
  pthread_join(T, NULL);
  return 0;
}
#endif
