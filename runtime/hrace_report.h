//===-- hrace_report.h - Writing reports ----------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_REPORT_H
#define HRACE_REPORT_H

#include "../detectors/hrace_detector.h"
#include "hrace_defs.h"
#include "hrace_thread.h"

namespace hrace {

// Reports a data race between the current access and the one in `race`,
// unless the same pair of source locations was reported before.
void ReportRace(ThreadState *thr, uptr pc, uptr addr, uptr size, bool write,
                const RaceInfo &race);

// At exit: if anything was reported, flush the program's output and exit with
// the exitcode option.
void FinishReports();

// In a forked child: its exit status counts its own reports, and log_path
// files are named after its own pid.
void ReportsForkChild();

} // namespace hrace

#endif // HRACE_REPORT_H
