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

void Indent(TextBuffer *out, u8 levels) {
  for (u8 i = 0; i < levels; i++)
    out->Append("  ");
}

void RenderFrame(TextBuffer *out, u8 indent, u32 index,
                 const SymbolizedFrame &f) {
  Indent(out, indent);
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
    RenderFrame(out, s.indent, i, r.frames[s.first_frame + i]);
  const char *note = s.missing ? s.missing
                     : s.frames_lost
                         ? "<older frames not stored: the stack depot is full>"
                     : !s.frame_count ? "<empty stack>"
                                      : nullptr;
  if (note) {
    Indent(out, s.indent);
    out->Append("    %s\n", note);
  }
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
    Indent(out, s.indent);
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
