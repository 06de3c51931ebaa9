//===-- hrace_flags.h - HRACE_OPTIONS -------------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_FLAGS_H
#define HRACE_FLAGS_H

#include "hrace_defs.h"

namespace hrace {

enum class Msm : u8 { kShort, kLong, kHb };

struct Flags {
#define HRACE_FLAG(Type, Name, Default, Help) Type Name;
#include "hrace_flags.inc"
#undef HRACE_FLAG
  void SetDefaults();
};

// The exit code for an HRACE_OPTIONS error, distinct from exitcode's default.
constexpr int kOptionErrorExitCode = 2;

// Parses `options` (key=value pairs separated by ':' or white space) into
// `flags`. On an unknown key or a bad value writes one line naming it and what
// is accepted into `error` and returns false. `storage` keeps string values;
// it must outlive `flags`.
bool ParseFlags(Flags *flags, const char *options, char *storage,
                uptr storage_size, char *error, uptr error_size);

// The option table with defaults and help, for help=1.
void PrintFlagHelp(const Flags &defaults);

const char *MsmName(Msm m);

} // namespace hrace

#endif // HRACE_FLAGS_H
