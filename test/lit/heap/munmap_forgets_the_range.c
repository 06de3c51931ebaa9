// munmap forgets what was done to the range: T1 writes a page and unmaps it;
// T2, ordered after it only by the kernel, maps a page at the same address
// and writes it. No report, in every machine (the mapping is new memory).
// Without the unmap, the same two writes race.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t 2>&1 | FileCheck %s
// RUN: not %t kept 2>&1 | FileCheck %s --check-prefix=KEPT
// CHECK-NOT: WARNING: HybridRace
// CHECK:     wrote the new page at the old address
// KEPT:      WARNING: HybridRace: data race

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static char *Page;
static int Kept, Unmapped;

static void *WriteAndUnmap(void *Arg) {
  (void)Arg;
  Page[0] = 1;
  if (!Kept)
    munmap(Page, 4096);
  invisible_signal(&Unmapped);
  return 0;
}

static void *MapAndWrite(void *Arg) {
  (void)Arg;
  invisible_wait(&Unmapped);
  char *Again = Page;
  if (!Kept)
    Again = mmap(Page, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (Again == MAP_FAILED) {
    printf("the old address was taken again before the new mapping\n");
    return 0;
  }
  Again[0] = 2;
  if (Again == Page)
    printf("wrote the new page at the old address\n");
  return 0;
}

int main(int Argc, char **Argv) {
  (void)Argv;
  Kept = Argc > 1;
  // Far below where the kernel puts mappings without a hint: once unmapped,
  // the page is not taken by the runtime's or libc's own mappings (a thread
  // leaving maps and unmaps) before T2 maps it again.
  Page = mmap((void *)0x00a000000000ul, 4096, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (Page == MAP_FAILED)
    Page = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                -1, 0);
  pthread_t T1, T2;
  pthread_create(&T1, 0, WriteAndUnmap, 0);
  pthread_create(&T2, 0, MapAndWrite, 0);
  pthread_join(T1, 0);
  pthread_join(T2, 0);
  return 0;
}
