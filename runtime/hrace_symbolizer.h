//===-- hrace_symbolizer.h - Code and data addresses to source ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Talks to one long-lived llvm-symbolizer process over a socket, with its
// line protocol: `CODE "module" 0xOFFSET` answers function / file:line:col
// pairs (one per inlined frame), `DATA "module" 0xOFFSET` answers a global's
// name and extent; a blank line ends each answer. Used only while reporting.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SYMBOLIZER_H
#define HRACE_SYMBOLIZER_H

#include "hrace_defs.h"

namespace hrace {

struct SymbolizedFrame {
  char function[256];
  char file[512];
  int line;
  int column;
  char module[256];
  uptr module_offset;
  // The code address asked about (reports fill it in).
  uptr pc;
};

// Frames for one code address, innermost (inlined) first. Always yields at
// least one frame; unknown fields are empty/0.
u32 SymbolizeCode(uptr pc, SymbolizedFrame *frames, u32 max_frames);

// In a forked child: the parent's symbolizer is the parent's; the child
// starts its own when it needs one.
void SymbolizerForkChild();

// Once the symbolizer has been given up (missing, hung, failing): a one-line
// notice naming it, for the next report to print first.
bool TakeSymbolizerNotice(char *out, uptr size);

// The global variable containing addr, if the symbolizer knows one.
bool SymbolizeData(uptr addr, char *name, uptr name_size, uptr *start,
                   uptr *size, char *module, uptr module_size,
                   uptr *module_offset);

} // namespace hrace

#endif // HRACE_SYMBOLIZER_H
