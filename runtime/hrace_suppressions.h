//===-- hrace_suppressions.h - Reports the user chose not to see ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// suppressions=FILE, in ThreadSanitizer's syntax: one KIND:PATTERN per line,
// '#' comments. A pattern matches a function, source file or module name
// anywhere in it; '*' matches any run of characters, '?' any one, '^' and
// '$' anchor it at the start and end of the name. race matches any frame
// of the two accesses' stacks and of their threads' creation stacks, and
// the name of the global variable raced on; race_top only each access's
// own frame; the other report kinds any frame of the report's stacks.
// called_from_lib names a library whose calls into interceptors are not
// checked for races (their synchronisation still counts).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SUPPRESSIONS_H
#define HRACE_SUPPRESSIONS_H

#include "hrace_defs.h"
#include "hrace_report_desc.h"

namespace hrace {

// Reads the suppressions option's file. A file that cannot be read or a
// malformed line ends the process with exit code 2 and one line naming the
// file and the line.
void InitSuppressions();

// Whether a suppression matches the report; counts the match.
bool IsSuppressed(const ReportDesc &r);

// print_suppressions=1: how many reports each suppression matched.
void PrintSuppressionCounts();

// Set when the file has called_from_lib lines.
extern bool called_from_lib_present;
bool CalledFromIgnoredLib(uptr pc);

} // namespace hrace

#endif // HRACE_SUPPRESSIONS_H
