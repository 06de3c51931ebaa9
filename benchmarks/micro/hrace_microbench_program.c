//===-- hrace_microbench_program.c - Loops instrumented as a program's ----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiled with -fsanitize-hybrid-race, unlike hrace_microbench.cpp: each
// load and store of these loops is instrumented as a program's, so on
// x86-64 it first makes the inline no-op test (docs/design.md, "The path of
// one access") and calls the runtime only when the test fails. Not
// vectorised or unrolled: one 8-byte access per word, as the direct calls.
//
//===----------------------------------------------------------------------===//

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

uint64_t hrace_bench_read_words(const uint64_t *words, size_t n) {
  uint64_t sum = 0;
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
  for (size_t i = 0; i < n; i++)
    sum += words[i];
  return sum;
}

void hrace_bench_write_words(uint64_t *words, size_t n) {
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
  for (size_t i = 0; i < n; i++)
    words[i] = i;
}

// A counter bumped under its lock, n times: each section reads and writes
// it (a new segment at every unlock), and its end publishes the write for
// the write/read relations.
void hrace_bench_locked_increments(pthread_mutex_t *m, uint64_t *counter,
                                   size_t n) {
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
  for (size_t i = 0; i < n; i++) {
    pthread_mutex_lock(m);
    ++*counter;
    pthread_mutex_unlock(m);
  }
}
