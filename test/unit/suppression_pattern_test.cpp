//===-- suppression_pattern_test.cpp - A suppression's pattern ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_suppression_pattern.h"

#include "gtest/gtest.h"

#include <string>

namespace hrace {
namespace {

bool Matches(const char *pattern, const char *name) {
  return SuppressionPatternMatches(pattern, name);
}

TEST(SuppressionPatternTest, PlainPatternMatchesAnywhere) {
  EXPECT_TRUE(Matches("Cache", "RefreshCache"));
  EXPECT_TRUE(Matches("Cache", "CacheRefresh"));
  EXPECT_TRUE(Matches("Cache", "Cache"));
  EXPECT_FALSE(Matches("Cache", "Cach"));
  EXPECT_FALSE(Matches("cache", "Cache"));
}

TEST(SuppressionPatternTest, AnchorsHoldTheEnds) {
  EXPECT_TRUE(Matches("^Refresh", "RefreshCache"));
  EXPECT_FALSE(Matches("^Cache", "RefreshCache"));
  EXPECT_TRUE(Matches("Cache$", "RefreshCache"));
  EXPECT_FALSE(Matches("Refresh$", "RefreshCache"));
  EXPECT_TRUE(Matches("^RefreshCache$", "RefreshCache"));
  EXPECT_FALSE(Matches("^Refresh$", "RefreshCache"));
  EXPECT_TRUE(Matches("^$", ""));
  EXPECT_FALSE(Matches("^$", "x"));
}

TEST(SuppressionPatternTest, StarAndQuestionMark) {
  EXPECT_TRUE(Matches("*", ""));
  EXPECT_TRUE(Matches("*", "anything"));
  EXPECT_TRUE(Matches("^a*b*c$", "aXXbYYc"));
  EXPECT_TRUE(Matches("^a*b*c$", "abc"));
  EXPECT_FALSE(Matches("^a*b*c$", "aXXcYYb"));
  EXPECT_TRUE(Matches("^Bump?hared$", "BumpShared"));
  EXPECT_FALSE(Matches("^Bump?hared$", "Bumphared"));
  EXPECT_TRUE(
      Matches("third_party/*/zlib", "/src/third_party/v1/zlib/inflate.c"));
  EXPECT_TRUE(Matches("^*.c$", "/src/a.c"));
  EXPECT_FALSE(Matches("^*.c$", "/src/a.cc"));
}

// A star that took too little is given more, and a later star can take what
// an earlier one could: backtracking to the last star alone is enough.
TEST(SuppressionPatternTest, BacktracksToTheLastStar) {
  EXPECT_TRUE(Matches("^*ab$", "aab"));
  EXPECT_TRUE(Matches("^*a*ab$", "xaxaab"));
  EXPECT_TRUE(Matches("^a*a$", "aa"));
  EXPECT_FALSE(Matches("^a*a$", "a"));
}

// Many stars against a long name that almost matches: linear, not
// exponential (a naive recursive matcher takes minutes here).
TEST(SuppressionPatternTest, ManyStarsStayFast) {
  std::string name(500, 'a');
  EXPECT_FALSE(Matches("^*a*a*a*a*a*a*a*a*a*a*a*a*b$", name.c_str()));
  name += 'b';
  EXPECT_TRUE(Matches("^*a*a*a*a*a*a*a*a*a*a*a*a*b$", name.c_str()));
}

} // namespace
} // namespace hrace
