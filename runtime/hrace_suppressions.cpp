//===-- hrace_suppressions.cpp - Reports the user chose not to see --------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_suppressions.h"

#include "hrace_alloc.h"
#include "hrace_flags.h"
#include "hrace_mutex.h"
#include "hrace_rtl.h"
#include "hrace_suppression_pattern.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

namespace hrace {

bool called_from_lib_present;

namespace {

// A line's KIND: the reports it silences, and how it matches.
struct Kind {
  const char *name;
  SuppressionType silences;
  // race_top: only each access's own frame.
  bool top_only;
  // called_from_lib: names a library, silences no report.
  bool library;
};
constexpr Kind kKinds[] = {
    {"race", SuppressionType::kRace, false, false},
    {"race_top", SuppressionType::kRace, true, false},
    {"thread", SuppressionType::kThread, false, false},
    {"mutex", SuppressionType::kMutex, false, false},
    {"deadlock", SuppressionType::kDeadlock, false, false},
    {"signal", SuppressionType::kSignal, false, false},
    {"misuse", SuppressionType::kMisuse, false, false},
    {"called_from_lib", SuppressionType::kRace, false, true},
};

struct Suppression {
  const Kind *kind;
  const char *pattern;
  u32 hits;
};

constexpr u32 kMaxSuppressions = 1024;
constexpr uptr kMaxFileSize = 1 << 20;
Suppression suppressions[kMaxSuppressions];
u32 suppression_count;
char *file_text;

[[noreturn]] void Fail(const char *path, u32 line, const char *what,
                       const char *detail) {
  char accepted[160];
  TextBuffer a(accepted, sizeof(accepted));
  for (const Kind &k : kKinds)
    a.Append("%s%s", a.length() ? ", " : "", k.name);
  if (line)
    Printf("HybridRace: suppressions file '%s' line %u: %s '%s' (expected "
           "KIND:PATTERN, KIND one of: %s)\n",
           path, line, what, detail, accepted);
  else
    Printf("HybridRace: cannot read suppressions file '%s': %s\n", path,
           detail);
  _exit(kOptionErrorExitCode);
}

char *Trim(char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\r')
    s++;
  char *end = s + internal_strlen(s);
  while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
    *--end = 0;
  return s;
}

void ParseLine(const char *path, u32 line_no, char *line) {
  line = Trim(line);
  if (!line[0] || line[0] == '#')
    return;
  char *colon = const_cast<char *>(internal_strchr(line, ':'));
  if (!colon)
    Fail(path, line_no, "no ':' in", line);
  *colon = 0;
  char *kind = Trim(line);
  char *pattern = Trim(colon + 1);
  const Kind *found = nullptr;
  for (const Kind &k : kKinds)
    if (!internal_strcmp(kind, k.name))
      found = &k;
  if (!found)
    Fail(path, line_no, "unknown kind", kind);
  if (!pattern[0])
    Fail(path, line_no, "empty pattern for kind", kind);
  if (suppression_count == kMaxSuppressions)
    Fail(path, line_no, "more than 1024 suppressions at", pattern);
  suppressions[suppression_count++] = {found, pattern, 0};
  if (found->library)
    called_from_lib_present = true;
}

bool FrameMatches(const char *pattern, const SymbolizedFrame &f) {
  return (f.function[0] && SuppressionPatternMatches(pattern, f.function)) ||
         (f.file[0] && SuppressionPatternMatches(pattern, f.file)) ||
         (f.module[0] && SuppressionPatternMatches(pattern, f.module));
}

bool ReportMatches(const Suppression &sup, const ReportDesc &r) {
  bool race = sup.kind->silences == SuppressionType::kRace;
  // As ThreadSanitizer's: a race's global variable by name, too.
  if (race && !sup.kind->top_only && r.location_name[0] &&
      SuppressionPatternMatches(sup.pattern, r.location_name))
    return true;
  for (u32 i = 0; i < r.section_count; i++) {
    const ReportSection &s = r.sections[i];
    bool access = s.role == SectionRole::kAccess ||
                  s.role == SectionRole::kPreviousAccess;
    // Races are matched against the two accesses' stacks and their threads'
    // creation stacks, other reports against all of theirs; race_top only
    // against each access's own frame.
    if (race && !access &&
        (sup.kind->top_only || s.role != SectionRole::kThread))
      continue;
    u32 n = sup.kind->top_only && s.frame_count ? 1 : s.frame_count;
    for (u32 j = 0; j < n; j++)
      if (FrameMatches(sup.pattern, r.frames[s.first_frame + j]))
        return true;
  }
  return false;
}

// called_from_lib: the code ranges of every loaded module, sorted, with
// whether a pattern names each. Interceptors look them up without a lock: a
// table is read from the loader into private memory, copied into the
// unpublished one of two tables and published whole. No runtime lock is held
// while the loader is asked (a thread inside dl_iterate_phdr's callback may
// call an interceptor). A pc outside every range makes the modules be read
// again only if the loader's count of loads and unloads moved; otherwise it
// is remembered as a miss (JIT code, the vDSO).
struct ModuleRange {
  uptr beg;
  uptr end;
  bool ignored;
};
constexpr u32 kMaxModuleRanges = 512;
struct ModuleTable {
  u32 count;
  ModuleRange ranges[kMaxModuleRanges];
};
SpinMutex modules_mu;
ModuleTable module_tables[2];
// The published table, + 1 (0: none read yet).
u32 published_table;
// dlpi_adds + dlpi_subs when the published table was read.
u64 modules_version = ~0ull;
// Pages of pcs in no module, direct-mapped; cleared at each publication.
constexpr u32 kMissPages = 64;
uptr miss_pages[kMissPages];

int AddModuleRanges(struct dl_phdr_info *info, size_t, void *arg) {
  ModuleTable *t = static_cast<ModuleTable *>(arg);
  const char *name = info->dlpi_name;
  bool ignored = false;
  for (u32 i = 0; name && name[0] && i < suppression_count; i++)
    ignored |= suppressions[i].kind->library &&
               SuppressionPatternMatches(suppressions[i].pattern, name);
  for (int i = 0; i < info->dlpi_phnum && t->count < kMaxModuleRanges; i++) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
      continue;
    uptr beg = info->dlpi_addr + ph.p_vaddr;
    // Insertion in order: a few dozen modules.
    u32 j = t->count++;
    for (; j && t->ranges[j - 1].beg > beg; j--)
      t->ranges[j] = t->ranges[j - 1];
    t->ranges[j] = {beg, beg + ph.p_memsz, ignored};
  }
  return 0;
}

int ReadLoaderVersion(struct dl_phdr_info *info, size_t, void *arg) {
  *static_cast<u64 *>(arg) = info->dlpi_adds + info->dlpi_subs;
  // One module tells: stop.
  return 1;
}

bool LookUp(uptr pc, bool *ignored) {
  u32 published = LoadAcquire(&published_table);
  if (!published)
    return false;
  const ModuleTable &t = module_tables[published - 1];
  // The last range that starts at or below pc.
  u32 lo = 0, hi = t.count;
  while (lo < hi) {
    u32 mid = (lo + hi) / 2;
    if (t.ranges[mid].beg <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo || pc >= t.ranges[lo - 1].end)
    return false;
  *ignored = t.ranges[lo - 1].ignored;
  return true;
}

uptr *MissSlot(uptr page) {
  return &miss_pages[(page * 0x9e3779b1u) % kMissPages];
}

} // namespace

void InitSuppressions() {
  const char *path = ctx->flags.suppressions;
  if (!path[0])
    return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    Fail(path, 0, nullptr, "no such file or not readable");
  // One byte more than the limit: a file that fills it is too large.
  file_text =
      static_cast<char *>(MmapOrDie(kMaxFileSize + 2, "suppressions file"));
  uptr size = 0;
  for (;;) {
    ssize_t got = read(fd, file_text + size, kMaxFileSize + 1 - size);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      Fail(path, 0, nullptr, "read failed");
    if (got == 0)
      break;
    size += static_cast<uptr>(got);
    if (size > kMaxFileSize)
      Fail(path, 0, nullptr, "larger than 1 MB");
  }
  close(fd);
  file_text[size] = 0;
  char *end = file_text + size;
  u32 line_no = 1;
  for (char *line = file_text; line < end; line_no++) {
    char *nl = line;
    while (nl < end && *nl != '\n')
      nl++;
    // A NUL inside a line would hide the rest of it from the parser.
    if (internal_strlen(line) < static_cast<uptr>(nl - line))
      Fail(path, line_no, "a NUL byte in", line);
    *nl = 0;
    ParseLine(path, line_no, line);
    line = nl + 1;
  }
}

bool IsSuppressed(const ReportDesc &r) {
  for (u32 i = 0; i < suppression_count; i++) {
    Suppression &sup = suppressions[i];
    if (!sup.kind->library && sup.kind->silences == r.suppression &&
        ReportMatches(sup, r)) {
      sup.hits++;
      return true;
    }
  }
  return false;
}

void PrintSuppressionCounts() {
  if (!ctx->flags.print_suppressions || !suppression_count)
    return;
  u32 total = 0;
  for (u32 i = 0; i < suppression_count; i++)
    total += suppressions[i].hits;
  char text[4096];
  TextBuffer out(text, sizeof(text));
  out.Append("HybridRace: matched %u suppression%s (pid=%d):\n", total,
             total == 1 ? "" : "s", static_cast<int>(getpid()));
  for (u32 i = 0; i < suppression_count; i++) {
    const Suppression &sup = suppressions[i];
    if (!sup.hits)
      continue;
    out.Append("  %u %s:%s\n", sup.hits, sup.kind->name, sup.pattern);
  }
  WriteToFd(2, out.data(), out.length());
}

bool CalledFromIgnoredLib(uptr pc) {
  bool ignored = false;
  if (LookUp(pc, &ignored))
    return ignored;
  uptr page = pc >> 12;
  if (LoadRelaxed(MissSlot(page)) == page + 1)
    return false;
  u64 version = 0;
  dl_iterate_phdr(ReadLoaderVersion, &version);
  if (version == LoadAcquire(&modules_version)) {
    StoreRelaxed(MissSlot(page), page + 1);
    return false;
  }
  ModuleTable *fresh =
      static_cast<ModuleTable *>(InternalAlloc(sizeof(ModuleTable)));
  fresh->count = 0;
  dl_iterate_phdr(AddModuleRanges, fresh);
  {
    SpinMutexLock l(&modules_mu);
    if (version != modules_version) {
      u32 next = LoadRelaxed(&published_table) == 1 ? 1 : 0;
      internal_memcpy(&module_tables[next], fresh, sizeof(ModuleTable));
      for (uptr &slot : miss_pages)
        StoreRelaxed(&slot, static_cast<uptr>(0));
      StoreRelease(&published_table, next + 1);
      StoreRelease(&modules_version, version);
    }
  }
  InternalFree(fresh);
  return LookUp(pc, &ignored) && ignored;
}

} // namespace hrace
