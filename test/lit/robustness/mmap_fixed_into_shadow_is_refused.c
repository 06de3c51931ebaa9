// mmap(MAP_FIXED) over the runtime's shadow fails with ENOMEM, as if the
// kernel had no room there, instead of replacing the shadow; the program
// goes on and its accesses are still checked (the race below is reported).
// verbosity=1 says so once. MAP_FIXED inside application memory still
// works.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=verbosity=1 not %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NOTICE
// NOTICE:    HybridRace: refused mmap(MAP_FIXED) at [0x50000000000, 0x50000010000): it overlaps the runtime's shadow memory (ENOMEM)
// NOTICE-NOT: refused mmap
// CHECK:     into the shadow: refused with ENOMEM
// CHECK:     MAP_FIXED_NOREPLACE into the shadow: refused with ENOMEM
// CHECK:     mmap64 into the shadow: refused with ENOMEM
// CHECK:     over the program's own mapping: mapped
// CHECK:     WARNING: HybridRace: data race
// CHECK:     HybridRace: reported 1 warning

#define _GNU_SOURCE
#include "hrace_test_sync.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

int Global;
static int Written;

static void *Thread1(void *Arg) {
  Global = 1;
  invisible_signal(&Written);
  return Arg;
}

static void Report(const char *What, void *P) {
  if (P == MAP_FAILED)
    printf("%s: refused with %s\n", What, errno == ENOMEM ? "ENOMEM" : "?");
  else
    printf("%s: mapped\n", What);
  fflush(stdout);
}

int main(void) {
  // Inside the shadow on x86-64 and AArch64 (mapping at 0x040000000000).
  void *Shadow = (void *)0x050000000000ull;
  Report("into the shadow",
         mmap(Shadow, 0x10000, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
  Report("MAP_FIXED_NOREPLACE into the shadow",
         mmap(Shadow, 0x10000, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0));
  Report("mmap64 into the shadow",
         mmap64(Shadow, 0x10000, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
  char *Own = mmap(0, 0x10000, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  Report("over the program's own mapping",
         mmap(Own, 0x10000, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
  pthread_t T;
  pthread_create(&T, 0, Thread1, 0);
  invisible_wait(&Written);
  Global = 2;
  pthread_join(T, 0);
  return 0;
}
