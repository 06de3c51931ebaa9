//===-- hrace_report_text.cpp - Reports as text ---------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The text form, ThreadSanitizer's layout: a WARNING line, each section
// indented by two with its stack below by four, a SUMMARY line naming the
// top frame.
//
//===----------------------------------------------------------------------===//
#include "hrace_report_desc.h"

#include <unistd.h>

namespace hrace {

namespace {

void RenderFrame(TextBuffer *out, u32 index, const SymbolizedFrame &f) {
  out->Append("    #%u ", index);
  if (f.function[0])
    out->Append("%s", f.function);
  else
    out->Append("0x%zx", f.pc);
  if (f.file[0])
    out->Append(" %s:%d:%d\n", f.file, f.line, f.column);
  else if (f.module[0])
    out->Append(" (%s+0x%zx)\n", f.module, f.module_offset);
  else
    out->Append("\n");
}

void RenderStack(TextBuffer *out, const ReportDesc &r, const ReportSection &s) {
  for (u32 i = 0; i < s.frame_count; i++)
    RenderFrame(out, i, r.frames[s.first_frame + i]);
  if (s.missing)
    out->Append("    %s\n", s.missing);
  else if (s.frames_lost)
    out->Append("    <older frames not stored: the stack depot is full>\n");
  else if (!s.frame_count)
    out->Append("    <empty stack>\n");
}

} // namespace

void RenderText(const ReportDesc &r, TextBuffer *out) {
  out->Append("==================\n");
  out->Append("WARNING: HybridRace: %s (pid=%d)\n", r.title,
              static_cast<int>(getpid()));
  for (u32 i = 0; i < r.section_count; i++) {
    const ReportSection &s = r.sections[i];
    if (s.blank_before)
      out->Append("\n");
    out->Append("  %s%s\n", s.text, s.has_stack ? ":" : "");
    if (s.has_stack)
      RenderStack(out, r, s);
  }
  out->Append("SUMMARY: HybridRace: %s ", r.summary_name);
  if (r.top.file[0])
    out->Append("%s:%d", r.top.file, r.top.line);
  else
    out->Append("(%s+0x%zx)", r.top.module, r.top.module_offset);
  out->Append(" in %s\n==================\n",
              r.top.function[0] ? r.top.function : "??");
}

} // namespace hrace
