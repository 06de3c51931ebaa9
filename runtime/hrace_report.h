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
#include "../detectors/hrace_lock_order.h"
#include "hrace_defs.h"
#include "hrace_misuse.h"
#include "hrace_thread.h"

namespace hrace {

// Reports a data race between the current access and the one in `race`,
// unless the same pair of source locations was reported before. `atomic`:
// the current access is an atomic operation's.
void ReportRace(ThreadState *thr, uptr pc, uptr addr, uptr size, bool write,
                bool atomic, const RaceInfo &race);

// A synchronisation object as a misuse report names it.
struct ObjectDescription {
  const char *noun = "mutex";
  uptr addr = 0;
  // M<n> of a lock; 0 for other objects.
  LockId lock_id = 0;
  StackId first_seen = 0;
  u32 first_seen_thread = 0;
  // Thread id + 1 of the thread holding it for writing; 0: none.
  u32 holder = 0;
  u32 readers = 0;
  // Where the reporting thread acquired it (a lock held at exit).
  StackId acquired = 0;
};

// "WARNING: HybridRace: <title>", then "Thread T<n> <what>:" over the
// current stack (or `stack`, when given), each object, and the threads.
// Reported once per kind and call site.
void ReportMisuse(ThreadState *thr, uptr pc, Misuse kind,
                  const ObjectDescription *objects, u32 object_count,
                  StackId stack, const char *what, ...)
    __attribute__((format(printf, 7, 8)));

// A cycle of `length` lock-order edges, of which `shown` are given, each
// with the identity of its first lock.
void ReportLockOrderInversion(const LockOrderEdge *cycle,
                              const LockIdentity *locks, u32 shown, u32 length);

// At exit: if anything was reported, flush the program's output and exit with
// the exitcode option.
void FinishReports();

// In a forked child: its exit status counts its own reports, and log_path
// files are named after its own pid.
void ReportsForkChild();

} // namespace hrace

#endif // HRACE_REPORT_H
