//===-- hrace_report_desc.cpp - A report before it is written -------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_report_desc.h"

#include "hrace_rtl.h"

#include <stdarg.h>

namespace hrace {

namespace {
// A source file path as reports show it (strip_path_prefix removed).
const char *ReportedPath(const char *path) {
  const char *prefix = ctx->flags.strip_path_prefix;
  uptr n = internal_strlen(prefix);
  if (n && !internal_strncmp(path, prefix, n))
    return path + n;
  return path;
}

} // namespace

void ReportDesc::Reset(SuppressionType type, const char *report_kind,
                       const char *summary) {
  suppression = type;
  kind = report_kind;
  summary_name = summary;
  title[0] = 0;
  has_top = false;
  internal_memset(&top, 0, sizeof(top));
  location_name[0] = 0;
  section_count = 0;
  frame_count = 0;
}

ReportSection *ReportDesc::Add(SectionRole role, const char *fmt, ...) {
  if (section_count < kMaxSections)
    section_count++;
  ReportSection *s = &sections[section_count - 1];
  internal_memset(s, 0, sizeof(*s));
  s->role = role;
  s->thread = -1;
  s->first_frame = frame_count;
  TextBuffer text(s->text, sizeof(s->text));
  va_list ap;
  va_start(ap, fmt);
  text.AppendV(fmt, ap);
  va_end(ap);
  return s;
}

void ReportDesc::AddStack(ReportSection *s, const uptr *pcs, u32 n,
                          bool take_top) {
  s->has_stack = true;
  s->first_frame = frame_count;
  for (u32 i = 0; i < n && frame_count < kMaxFrames; i++) {
    uptr pc = pcs[i] & ~kRuntimeFramePc;
    // Return addresses point after the call; the call is one byte earlier.
    u32 got =
        SymbolizeCode(pc - 1, &frames[frame_count], kMaxFrames - frame_count);
    for (u32 j = 0; j < got; j++) {
      SymbolizedFrame &f = frames[frame_count + j];
      f.pc = pc;
      const char *shown = ReportedPath(f.file);
      for (uptr k = 0; shown != f.file && (k == 0 || shown[k - 1]); k++)
        f.file[k] = shown[k];
      if (take_top && !has_top && !(pcs[i] & kRuntimeFramePc)) {
        top = f;
        has_top = true;
      }
    }
    frame_count += got;
  }
  s->frame_count = frame_count - s->first_frame;
}

} // namespace hrace
