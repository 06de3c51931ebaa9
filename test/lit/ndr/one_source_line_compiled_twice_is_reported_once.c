// A report names a pair of source locations once, however many copies of
// the code the compiler made. ReadX is inlined at two call sites of Reader,
// so its load of X is two code addresses on one source line. Each copy's
// read lies in its own epoch (a lock and unlock of a private mutex ends the
// first) and is non-deterministic: T2's write of X is parallel to both. The
// second read, with the same read line and the same write line, is not
// reported again.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1:exitcode=0 %t 2>&1 | FileCheck %s

#include <pthread.h>
#include <stdio.h>

int X;
pthread_mutex_t Private = PTHREAD_MUTEX_INITIALIZER;

static inline __attribute__((always_inline)) int ReadX(void) { return X; }

static void *Reader(void *Arg) {
  int Sum = ReadX();
  pthread_mutex_lock(&Private);
  pthread_mutex_unlock(&Private);
  Sum += ReadX();
  return (void *)(long)Sum;
}

static void *Writer(void *Arg) {
  X = 2;
  return Arg;
}
// CHECK:      WARNING: HybridRace: non-deterministic read
// CHECK-NEXT:   Read of size 4 at {{0x[0-9a-f]+}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 ReadX {{.*}}one_source_line_compiled_twice_is_reported_once.c:[[@LINE-16]]
// CHECK-NEXT:     #1 Reader {{.*}}one_source_line_compiled_twice_is_reported_once.c:{{21|24}}
// CHECK:        has 1 write dependency:
// CHECK-NEXT:     Write of size 4 at {{0x[0-9a-f]+}} by thread T2 (locks held: none), parallel to the read:
// CHECK-NEXT:       #0 Writer {{.*}}one_source_line_compiled_twice_is_reported_once.c:[[@LINE-9]]
// CHECK:      SUMMARY: HybridRace: non-deterministic read {{.*}}one_source_line_compiled_twice_is_reported_once.c:[[@LINE-21]] in ReadX
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read
// CHECK:      done
// CHECK-NOT:  WARNING: HybridRace: non-deterministic read

int main(void) {
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Reader, NULL);
  pthread_create(&T2, NULL, Writer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  printf("done\n");
  return 0;
}
