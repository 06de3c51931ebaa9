//===-- hrace_flags.cpp - HRACE_OPTIONS -----------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_flags.h"

#include "hrace_libc.h"

#include <stdlib.h>

namespace hrace {

namespace {

// The names of an enumerated option's values.
template <typename E> struct NamedValue {
  const char *name;
  E value;
};
constexpr NamedValue<Msm> kMsmValues[] = {
    {"short", Msm::kShort}, {"long", Msm::kLong}, {"hb", Msm::kHb}};
constexpr NamedValue<ReportFormat> kReportFormatValues[] = {
    {"text", ReportFormat::kText},
    {"json", ReportFormat::kJson},
    {"sarif", ReportFormat::kSarif}};

template <typename E, uptr N>
bool ParseNamed(E *out, const char *v, const NamedValue<E> (&values)[N],
                TextBuffer *accepted) {
  for (const NamedValue<E> &n : values) {
    if (!internal_strcmp(v, n.name)) {
      *out = n.value;
      return true;
    }
  }
  for (uptr i = 0; i < N; i++)
    accepted->Append("%s%s", i ? ", " : "", values[i].name);
  return false;
}

template <typename E, uptr N>
const char *NameOf(E value, const NamedValue<E> (&values)[N]) {
  for (const NamedValue<E> &n : values)
    if (n.value == value)
      return n.name;
  return "?";
}

bool IsSeparator(char c) {
  return c == ':' || c == ' ' || c == '\t' || c == '\n' || c == ',';
}

// One parser per option type; each writes the accepted values on failure.
bool ParseValue(bool *out, const char *v, TextBuffer *accepted) {
  if (!internal_strcmp(v, "1") || !internal_strcmp(v, "true")) {
    *out = true;
    return true;
  }
  if (!internal_strcmp(v, "0") || !internal_strcmp(v, "false")) {
    *out = false;
    return true;
  }
  accepted->Append("0, 1, true, false");
  return false;
}

bool ParseValue(int *out, const char *v, TextBuffer *accepted) {
  char *end;
  long n = strtol(v, &end, 10);
  if (*v && !*end && n >= -2147483647L - 1 && n <= 2147483647L) {
    *out = static_cast<int>(n);
    return true;
  }
  accepted->Append("an integer");
  return false;
}

template <int kMin, int kMax>
bool ParseValue(BoundedInt<kMin, kMax> *out, const char *v,
                TextBuffer *accepted) {
  char scratch[64];
  TextBuffer ignored(scratch, sizeof(scratch));
  int n;
  if (ParseValue(&n, v, &ignored) && n >= kMin && n <= kMax) {
    *out = n;
    return true;
  }
  accepted->Append("an integer from %d to %d", kMin, kMax);
  return false;
}

bool ParseValue(const char **out, const char *v, TextBuffer *) {
  *out = v;
  return true;
}

bool ParseValue(NonEmptyString *out, const char *v, TextBuffer *accepted) {
  if (*v) {
    *out = v;
    return true;
  }
  accepted->Append("a non-empty string");
  return false;
}

bool ParseValue(Msm *out, const char *v, TextBuffer *accepted) {
  return ParseNamed(out, v, kMsmValues, accepted);
}

bool ParseValue(ReportFormat *out, const char *v, TextBuffer *accepted) {
  return ParseNamed(out, v, kReportFormatValues, accepted);
}

void FormatValue(TextBuffer *out, bool v) { out->Append("%d", v ? 1 : 0); }
void FormatValue(TextBuffer *out, const char *v) { out->Append("%s", v); }
template <int kMin, int kMax>
void FormatValue(TextBuffer *out, BoundedInt<kMin, kMax> v) {
  out->Append("%d", v.value);
}
void FormatValue(TextBuffer *out, NonEmptyString v) {
  out->Append("%s", v.value);
}
void FormatValue(TextBuffer *out, Msm v) { out->Append("%s", MsmName(v)); }
void FormatValue(TextBuffer *out, ReportFormat v) {
  out->Append("%s", NameOf(v, kReportFormatValues));
}

bool SetFlag(Flags *flags, const char *key, const char *value, char *error,
             uptr error_size) {
  char accepted_storage[256];
  TextBuffer accepted(accepted_storage, sizeof(accepted_storage));
  TextBuffer err(error, error_size);
#define HRACE_FLAG(Type, Name, Default, Help)                                  \
  if (!internal_strcmp(key, #Name)) {                                          \
    if (ParseValue(&flags->Name, value, &accepted))                            \
      return true;                                                             \
    err.Append("HybridRace: invalid value '%s' for option '%s' in "            \
               "HRACE_OPTIONS (accepted: %s)",                                 \
               value, key, accepted.data());                                   \
    return false;                                                              \
  }
#include "hrace_flags.inc"
#undef HRACE_FLAG
  err.Append("HybridRace: unknown option '%s' in HRACE_OPTIONS (known:", key);
#define HRACE_FLAG(Type, Name, Default, Help) err.Append(" " #Name);
#include "hrace_flags.inc"
#undef HRACE_FLAG
  err.Append(")");
  return false;
}

} // namespace

const char *MsmName(Msm m) { return NameOf(m, kMsmValues); }

void Flags::SetDefaults() {
#define HRACE_FLAG(Type, Name, Default, Help) Name = Default;
#include "hrace_flags.inc"
#undef HRACE_FLAG
}

bool ParseFlags(Flags *flags, const char *options, char *storage,
                uptr storage_size, char *error, uptr error_size) {
  error[0] = 0;
  if (!options)
    return true;
  uptr len = internal_strlen(options);
  if (len + 1 > storage_size) {
    TextBuffer err(error, error_size);
    err.Append("HybridRace: HRACE_OPTIONS is longer than %zu characters",
               storage_size - 1);
    return false;
  }
  internal_memcpy(storage, options, len + 1);
  char *p = storage;
  while (*p) {
    while (*p && IsSeparator(*p))
      p++;
    if (!*p)
      break;
    char *key = p;
    while (*p && *p != '=' && !IsSeparator(*p))
      p++;
    if (*p != '=') {
      TextBuffer err(error, error_size);
      char saved = *p;
      *p = 0;
      err.Append("HybridRace: option '%s' in HRACE_OPTIONS has no value "
                 "(write %s=VALUE)",
                 key, key);
      *p = saved;
      return false;
    }
    *p++ = 0;
    char *value = p;
    // A quoted value may contain separators (log_path='/tmp/a b').
    if (*p == '\'' || *p == '"') {
      char quote = *p++;
      value = p;
      while (*p && *p != quote)
        p++;
    } else {
      while (*p && !IsSeparator(*p))
        p++;
    }
    if (*p)
      *p++ = 0;
    if (!SetFlag(flags, key, value, error, error_size))
      return false;
  }
  return true;
}

// One write per option: the table as a whole outgrew a fixed buffer once
// (the last entries were cut).
void PrintFlagHelp(const Flags &defaults) {
  char storage[1024];
  TextBuffer out(storage, sizeof(storage));
  out.Append("HybridRace options (HRACE_OPTIONS=key=value:key=value):\n");
  WriteToFd(2, out.data(), out.length());
#define HRACE_FLAG(Type, Name, Default, Help)                                  \
  out.Clear();                                                                 \
  out.Append("  %-26s default ", #Name);                                      \
  FormatValue(&out, defaults.Name);                                            \
  out.Append("\n      %s\n", Help);                                            \
  WriteToFd(2, out.data(), out.length());
#include "hrace_flags.inc"
#undef HRACE_FLAG
}

} // namespace hrace
