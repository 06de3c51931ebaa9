//===-- hrace_suppression_pattern.cpp - A suppression's pattern -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_suppression_pattern.h"

#include "hrace_libc.h"

namespace hrace {

namespace {

// A pattern as the matcher sees it: an unanchored end is a '*' there.
struct Glob {
  const char *text;
  u32 length;
  bool star_first;
  bool star_last;
  u32 size() const { return length + star_first + star_last; }
  char at(u32 i) const {
    if (star_first && i == 0)
      return '*';
    u32 j = i - star_first;
    return j < length ? text[j] : '*';
  }
};

// The whole of s against the glob, in time linear in their lengths times
// the number of stars: on a mismatch only the last '*' takes one more
// character (what an earlier '*' could take, the last one can too).
bool GlobMatch(const Glob &g, const char *s) {
  u32 p = 0, n = g.size();
  u32 star = ~0u;
  const char *star_s = nullptr;
  while (*s) {
    if (p < n && g.at(p) == '*') {
      star = p++;
      star_s = s;
    } else if (p < n && (g.at(p) == '?' || g.at(p) == *s)) {
      p++;
      s++;
    } else if (star != ~0u) {
      p = star + 1;
      s = ++star_s;
    } else {
      return false;
    }
  }
  while (p < n && g.at(p) == '*')
    p++;
  return p == n;
}

} // namespace

bool SuppressionPatternMatches(const char *pattern, const char *name) {
  const char *p = pattern;
  const char *pend = p + internal_strlen(p);
  bool at_start = *p == '^';
  if (at_start)
    p++;
  bool at_end = pend > p && pend[-1] == '$';
  if (at_end)
    pend--;
  Glob g = {p, static_cast<u32>(pend - p), !at_start, !at_end};
  return GlobMatch(g, name);
}

} // namespace hrace
