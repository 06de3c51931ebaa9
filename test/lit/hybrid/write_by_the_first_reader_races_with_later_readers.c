// A Shared-Read location remembers its first read. When the thread that made
// it then writes, that read orders its write trivially; the question is the
// other readers. They read after it (the cell held it), so only something
// the writer acquired since can order their reads before the write. Here the
// writer (T2) reads Table under a read lock, the reader (T1) reads it under
// the same read lock, and the writer, still read-holding it, increments it:
// a read lock protects no write, and nothing orders the two threads. The
// paper's machine goes to Shared-Modified and the writer's next access takes
// the location back, so the race was never reported.
//
// With `sem`, the reader posts a semaphore after its read and the writer
// waits for it before writing: the read happens before the write, and every
// machine is silent. (The invisible signal only lets the writer read first
// in both runs; the write is ordered, or not, by what the detector sees.)
// msm=hb keeps one read per location, the first of several unordered ones,
// and had the same blind spot; it now marks that another thread read after
// it, and reports the write the same way.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s --check-prefix=HB
// RUN: %t sem 2>&1 | FileCheck %s --check-prefix=SEM
// RUN: env HRACE_OPTIONS=msm=hb %t sem 2>&1 | FileCheck %s --check-prefix=SEM

#include "hrace_test_sync.h"
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

int Table;
static pthread_rwlock_t L = PTHREAD_RWLOCK_INITIALIZER;
static sem_t ReadDone;
static int UseSem, WriterRead, ReaderRead;

static void *Reader(void *Arg) {
  invisible_wait(&WriterRead);
  pthread_rwlock_rdlock(&L);
  (void)*(volatile int *)&Table;
  pthread_rwlock_unlock(&L);
  if (UseSem)
    sem_post(&ReadDone);
  invisible_signal(&ReaderRead);
  return Arg;
}

static void *Writer(void *Arg) {
  pthread_rwlock_rdlock(&L);
  int V = *(volatile int *)&Table;
  invisible_signal(&WriterRead);
  invisible_wait(&ReaderRead);
  if (UseSem)
    sem_wait(&ReadDone);
  *(volatile int *)&Table = V + 1;
  pthread_rwlock_unlock(&L);
  return Arg;
}

int main(int Argc, char **Argv) {
  (void)Argv;
  UseSem = Argc > 1;
  sem_init(&ReadDone, 0, 0);
  pthread_t R, W;
  pthread_create(&R, NULL, Reader, NULL);
  pthread_create(&W, NULL, Writer, NULL);
  pthread_join(R, NULL);
  pthread_join(W, NULL);
  printf("Table=%d\n", Table);
  return 0;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{.*}} by thread T2 (locks held: {M1}):
// CHECK-NEXT:     #0 Writer {{.*}}write_by_the_first_reader_races_with_later_readers.c:53
// CHECK-NEXT:   Previous read of size 4 at {{.*}} by thread T1 (locks held: {M1}):
// CHECK-NEXT:     #0 Reader {{.*}}write_by_the_first_reader_races_with_later_readers.c:38
// CHECK-NEXT:   Detected by msm=short: the candidate lock set {M1} of this shared location ran empty: this write holds none, and other threads read the location after this thread did, while it has learned nothing from other threads since.
// CHECK:      SUMMARY: HybridRace: data race {{.*}}write_by_the_first_reader_races_with_later_readers.c:53 in Writer
// HB:         WARNING: HybridRace: data race
// HB-NEXT:      Write of size 4 at {{.*}} by thread T2 (locks held: {M1}):
// HB-NEXT:        #0 Writer {{.*}}write_by_the_first_reader_races_with_later_readers.c:53
// HB-NEXT:      Previous read of size 4 at {{.*}} by thread T1 (locks held: {M1}):
// HB-NEXT:        #0 Reader {{.*}}write_by_the_first_reader_races_with_later_readers.c:38
// HB-NEXT:      Detected by msm=hb: another thread read the location after this thread did, and this thread has learned nothing from other threads since.
// SEM-NOT:    WARNING: HybridRace
// SEM:        Table=1
