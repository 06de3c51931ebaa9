//===-- hrace_suppression_pattern.h - A suppression's pattern -------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ThreadSanitizer's suppression patterns: a pattern matches a name anywhere
// in it; '*' matches any run of characters, '?' any one, a leading '^' and
// a trailing '$' anchor it at the name's start and end.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SUPPRESSION_PATTERN_H
#define HRACE_SUPPRESSION_PATTERN_H

#include "hrace_defs.h"

namespace hrace {

bool SuppressionPatternMatches(const char *pattern, const char *name);

} // namespace hrace

#endif // HRACE_SUPPRESSION_PATTERN_H
