//===-- hrace_report_desc.h - A report before it is written ---------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every report is first built as a description: a title, then sections, each
// a line of text with what it is about (an access, a thread, a lock) and,
// for most, a symbolised stack. Suppressions match the description; the text
// (hrace_report_text.cpp) and the machine formats (hrace_report_json.cpp)
// are renderings of it, so they never disagree.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_REPORT_DESC_H
#define HRACE_REPORT_DESC_H

#include "hrace_defs.h"
#include "hrace_libc.h"
#include "hrace_symbolizer.h"

namespace hrace {

typedef u32 LockSetId;

// The kind of suppressions file line that silences a report.
enum class SuppressionType : u8 {
  kRace,
  kThread,
  kMutex,
  kDeadlock,
  kSignal,
  kMisuse,
};

enum class SectionRole : u8 {
  kAccess,
  kPreviousAccess,
  kThread,
  kMutex,
  kLockOrderEdge,
  kContext,
  // Why the state machine reported a race; where the memory is.
  kCause,
  kLocation,
};

struct ReportSection {
  SectionRole role;
  // Text: an empty line before the section.
  bool blank_before;
  // Text: the line ends with ':' and the stack follows.
  bool has_stack;
  // Older frames of the stack were not stored (the depot was full).
  bool frames_lost;
  // Text: the section (and its stack) nested this many levels deeper.
  u8 indent;
  bool has_access;
  bool has_locks;
  bool is_write;
  bool is_atomic;
  // T<n> the section is about, or -1.
  int thread;
  LockSetId locks;
  uptr addr;
  uptr size;
  // Printed instead of frames when the stack is not known.
  const char *missing;
  u32 first_frame;
  u32 frame_count;
  char text[320];
};

struct ReportDesc {
  static constexpr u32 kMaxSections = 40;
  static constexpr u32 kMaxFrames = 384;

  SuppressionType suppression;
  // The report's name in JSON and SARIF (data-race, thread-leak, ...) and
  // in the SUMMARY line (data race, thread-leak, ...).
  const char *kind;
  const char *summary_name;
  // The WARNING line's title and whether it names the msm (races).
  char title[160];
  // The first program frame of the main stack: the SUMMARY's location.
  bool has_top;
  SymbolizedFrame top;
  // A global variable the report is about, for suppressions; "" if none.
  char location_name[256];
  u32 section_count;
  u32 frame_count;
  ReportSection sections[kMaxSections];
  SymbolizedFrame frames[kMaxFrames];

  void Reset(SuppressionType type, const char *report_kind,
             const char *summary);
  // A new section whose text is printf-formatted; the last one is reused
  // when all are taken (a report is cut, never overrun).
  ReportSection *Add(SectionRole role, const char *fmt, ...)
      __attribute__((format(printf, 3, 4)));
  // Symbolises the return addresses pcs[0..n) into the section's stack.
  // take_top: the first frame not added by the runtime becomes the top.
  void AddStack(ReportSection *s, const uptr *pcs, u32 n, bool take_top);
};

// The renderings.
void RenderText(const ReportDesc &r, TextBuffer *out);
// json and sarif: the report is kept and written out at exit.
void CollectMachineReport(const ReportDesc &r);
void WriteMachineReports();
void MachineReportsForkChild();

} // namespace hrace

#endif // HRACE_REPORT_DESC_H
