//===-- hrace_test_rss.h - The process's resident set, for memory tests ---===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tests that memory stays flat read VmRSS from /proc/self/status: a
// measurement of memory, never of time.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_RSS_H
#define HRACE_TEST_RSS_H

#include <stdio.h>
#include <string.h>

// The resident set in KiB, or -1 if it cannot be read.
static long resident_kb(void) {
  char Line[256];
  long Kb = -1;
  FILE *F = fopen("/proc/self/status", "r");
  while (F && fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, "VmRSS:", 6))
      sscanf(Line + 6, "%ld", &Kb);
  if (F)
    fclose(F);
  return Kb;
}

#endif // HRACE_TEST_RSS_H
