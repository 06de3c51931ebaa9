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
enum class ReportFormat : u8 { kText, kJson, kSarif };

// An int option that accepts only [kMin, kMax]: an exit code past 255 would
// wrap to 0 and turn a reported race into a passing test.
template <int kMin, int kMax> struct BoundedInt {
  int value;
  constexpr operator int() const { return value; }
  BoundedInt &operator=(int v) {
    value = v;
    return *this;
  }
};
typedef BoundedInt<0, 255> ExitCode;
typedef BoundedInt<0, 2> Verbosity;
typedef BoundedInt<1, 3600> TimeoutSeconds;
typedef BoundedInt<0, 64> HistoryDepth;
typedef BoundedInt<1, 64> NdrHistory;
typedef BoundedInt<0, 1048576> NdrSweepMb;

// A string option that may not be empty (an empty log_path prefix would
// write the reports to a hidden ./.PID file).
struct NonEmptyString {
  const char *value;
  operator const char *() const { return value; }
  NonEmptyString &operator=(const char *v) {
    value = v;
    return *this;
  }
};

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
