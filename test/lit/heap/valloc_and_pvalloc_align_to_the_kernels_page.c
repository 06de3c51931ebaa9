// valloc returns memory aligned to the kernel's page, and pvalloc rounds
// the size up to whole pages as well (4, 16 or 64 KiB on AArch64: the
// runtime asks the kernel, never assumes 4 KiB). Both blocks are heap
// blocks like any other: used and freed with no report.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// CHECK-NOT: WARNING
// CHECK:     valloc aligned: 1
// CHECK-NEXT: pvalloc aligned: 1, whole pages: 1
// CHECK-NOT: WARNING

#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  size_t Page = (size_t)sysconf(_SC_PAGESIZE);
  char *V = valloc(100);
  char *P = pvalloc(Page + 1);
  memset(V, 1, 100);
  memset(P, 2, Page + 1);
  printf("valloc aligned: %d\n", (uintptr_t)V % Page == 0);
  printf("pvalloc aligned: %d, whole pages: %d\n", (uintptr_t)P % Page == 0,
         malloc_usable_size(P) >= 2 * Page);
  free(V);
  free(P);
  return 0;
}
