//===-- hrace_test_lines.h - One read per 64-byte line --------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ndr=1 keeps one epoch variable per 64-byte line an epoch touches: tests of
// its memory read `count` lines, one byte each, to make that many.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_LINES_H
#define HRACE_TEST_LINES_H

static int read_lines(volatile char *Lines, int Count) {
  int Sum = 0;
  for (int I = 0; I < Count; I++)
    Sum += Lines[I * 64];
  return Sum;
}

#endif // HRACE_TEST_LINES_H
