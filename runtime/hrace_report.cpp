//===-- hrace_report.cpp - Writing reports --------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A report is built in one buffer and written with one write(2), so reports
// from several threads never interleave. Reporting holds one global mutex; it
// is the only slow, serialised part of the runtime and runs only on a race.
//
//===----------------------------------------------------------------------===//
#include "hrace_report.h"

#include "hrace_fd.h"
#include "hrace_libc.h"
#include "hrace_rtl.h"
#include "hrace_symbolizer.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

namespace hrace {

namespace {

constexpr u32 kMaxReportedPairs = 4096;
constexpr u32 kMaxFramesShown = 64;

struct ReportState {
  SpinMutex mu;
  u32 count;
  int fd;
  bool fd_opened;
  u32 npairs;
  uptr pairs[kMaxReportedPairs][2];
  char buffer[1 << 16];
};
ReportState reports;

int OutputFd() {
  if (reports.fd_opened)
    return reports.fd;
  reports.fd_opened = true;
  reports.fd = 2;
  const char *path = ctx->flags.log_path;
  if (!internal_strcmp(path, "stderr"))
    return reports.fd;
  if (!internal_strcmp(path, "stdout")) {
    reports.fd = 1;
    return reports.fd;
  }
  char name[1024];
  TextBuffer file(name, sizeof(name));
  file.Append("%s.%d", path, static_cast<int>(getpid()));
  int fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    Printf("HybridRace: cannot open log_path file '%s'; reporting to "
           "stderr\n",
           name);
  else
    reports.fd = fd;
  return reports.fd;
}

// The pair is remembered in both orders: T1-T2 and T2-T1 are one race.
bool AlreadyReported(uptr pc1, uptr pc2) {
  for (u32 i = 0; i < reports.npairs; i++)
    if ((reports.pairs[i][0] == pc1 && reports.pairs[i][1] == pc2) ||
        (reports.pairs[i][0] == pc2 && reports.pairs[i][1] == pc1))
      return true;
  if (reports.npairs < kMaxReportedPairs) {
    reports.pairs[reports.npairs][0] = pc1;
    reports.pairs[reports.npairs][1] = pc2;
    reports.npairs++;
  }
  return false;
}

void PrintLockSet(TextBuffer *out, LockSetId id) {
  if (id == kUnknownLockSet) {
    out->Append("unknown (more than %u lock sets)", kMaxLockSets - 1);
    return;
  }
  u32 n;
  const LockId *locks = ctx->locksets.Members(id, &n);
  if (!n) {
    out->Append("none");
    return;
  }
  out->Append("{");
  for (u32 i = 0; i < n; i++)
    out->Append("%sM%u", i ? ", " : "", locks[i]);
  out->Append("}");
}

// Prints a stack of return addresses; the first frame of the summary is
// stored in *top when asked for.
void PrintStack(TextBuffer *out, const uptr *pcs, u32 n,
                SymbolizedFrame *top) {
  SymbolizedFrame frames[16];
  u32 shown = 0;
  bool have_top = false;
  for (u32 i = 0; i < n && shown < kMaxFramesShown; i++) {
    uptr pc = pcs[i] & ~kRuntimeFramePc;
    // Return addresses point after the call; the call is one byte earlier.
    u32 nf = SymbolizeCode(pc - 1, frames, 16);
    for (u32 j = 0; j < nf; j++, shown++) {
      const SymbolizedFrame &f = frames[j];
      if (top && !have_top && !(pcs[i] & kRuntimeFramePc)) {
        *top = f;
        have_top = true;
      }
      out->Append("    #%u ", shown);
      if (f.function[0])
        out->Append("%s", f.function);
      else
        out->Append("0x%zx", pc);
      if (f.file[0])
        out->Append(" %s:%d:%d\n", f.file, f.line, f.column);
      else if (f.module[0])
        out->Append(" (%s+0x%zx)\n", f.module, f.module_offset);
      else
        out->Append("\n");
    }
  }
  if (!n)
    out->Append("    <empty stack>\n");
}

bool DescribeStack(TextBuffer *out, uptr addr) {
  SpinMutexLock l(ctx->threads.mutex());
  for (u32 slot = 0; slot < ctx->threads.slots_in_use(); slot++) {
    ThreadContext *tc = ctx->threads.ContextOfSlot(slot);
    if (tc && tc->status != ThreadStatus::kFree && addr >= tc->stack_beg &&
        addr < tc->stack_end) {
      out->Append("  Location is stack of thread T%u\n", tc->thread_id);
      return true;
    }
  }
  return false;
}

bool DescribeGlobal(TextBuffer *out, uptr addr) {
  char name[256], module[256];
  uptr start, size, module_offset;
  if (!SymbolizeData(addr, name, sizeof(name), &start, &size, module,
                     sizeof(module), &module_offset) ||
      addr < start || addr >= start + (size ? size : 1))
    return false;
  out->Append("  Location is global '%s' of size %zu at 0x%zx (%s+0x%zx)\n",
              name, size, start, module, module_offset - (addr - start));
  return true;
}

bool DescribeHeap(TextBuffer *out, uptr addr) {
  uptr beg, size;
  if (!FindHeapBlock(addr, &beg, &size))
    return false;
  out->Append("  Location is heap block of size %zu at 0x%zx, offset %zu\n",
              size, beg, addr - beg);
  return true;
}

bool DescribeFd(TextBuffer *out, uptr addr) {
  int fd;
  if (!FdOfAddress(addr, &fd))
    return false;
  out->Append("  Location is file descriptor %d\n", fd);
  return true;
}

// Cheapest first: descriptors and stacks are lists, the heap a walk bounded
// by a chunk, globals a symbolizer query.
void DescribeLocation(TextBuffer *out, uptr addr) {
  if (!DescribeFd(out, addr) && !DescribeStack(out, addr) &&
      !DescribeHeap(out, addr))
    DescribeGlobal(out, addr);
}

void DescribeThread(TextBuffer *out, u32 thread_id) {
  SpinMutexLock l(ctx->threads.mutex());
  ThreadContext *tc = ctx->threads.FindByThreadId(thread_id);
  if (!tc) {
    out->Append("  Thread T%u has exited and its slot was reused\n",
                thread_id);
    return;
  }
  const char *status = tc->status == ThreadStatus::kRunning ? "running"
                                                            : "finished";
  out->Append("  Thread T%u", thread_id);
  if (tc->name[0])
    out->Append(" '%s'", tc->name);
  out->Append(" (tid=%d, %s)", tc->os_tid, status);
  if (thread_id == 0) {
    out->Append(" is the main thread\n");
    return;
  }
  if (tc->adopted) {
    out->Append(" was not created by pthread_create\n");
    return;
  }
  out->Append(" created by T%u at:\n", tc->parent_id);
  PrintStack(out, tc->creation_stack, tc->creation_stack_size, nullptr);
}

const char *KindName(AccessKind kind) {
  return kind == AccessKind::kWrite  ? "write"
         : kind == AccessKind::kRead ? "read"
                                     : "access";
}

// One sentence on why the state machine called this a race.
void ExplainCause(TextBuffer *out, const RaceInfo &race) {
  out->Append("  Detected by msm=%s: ", MsmName(ctx->flags.msm));
  if (race.cause == RaceCause::kAtomicUnordered) {
    out->Append("one access is atomic, the other is not, and neither "
                "happens before the other.\n");
    return;
  }
  if (ctx->flags.msm == Msm::kHb) {
    out->Append("neither access happens before the other.\n");
    return;
  }
  if (race.cause == RaceCause::kUnordered) {
    out->Append("the previous access does not happen before this one and "
                "no lock protects both.\n");
    return;
  }
  out->Append("the candidate lock set ");
  PrintLockSet(out, race.candidates);
  out->Append(" of this shared location ran empty: this access holds ");
  PrintLockSet(out, race.access_locks);
  out->Append(" and does not happen after the access the location "
              "remembers.\n");
}

const char *const kMisuseKinds[] = {
#define HRACE_MISUSE(name, kind, title) kind,
#include "hrace_misuse.inc"
#undef HRACE_MISUSE
};
const char *const kMisuseTitles[] = {
#define HRACE_MISUSE(name, kind, title) title,
#include "hrace_misuse.inc"
#undef HRACE_MISUSE
};

void PrintStackId(TextBuffer *out, StackId id, SymbolizedFrame *top) {
  u32 n;
  const uptr *frames = ctx->stacks.Get(id, &n);
  PrintStack(out, frames, n, top);
}

// Capitalised for the start of a line.
void AppendNoun(TextBuffer *out, const char *noun) {
  char first = noun[0];
  if (first >= 'a' && first <= 'z')
    first = static_cast<char>(first - 'a' + 'A');
  out->Append("%c%s", first, noun + 1);
}

void AppendObjectName(TextBuffer *out, const ObjectDescription &o) {
  out->Append("  ");
  AppendNoun(out, o.noun);
  if (o.lock_id)
    out->Append(" M%u", o.lock_id);
}

void DescribeObject(TextBuffer *out, const ObjectDescription &o) {
  AppendObjectName(out, o);
  out->Append(" at 0x%zx", o.addr);
  if (o.holder)
    out->Append(" is held by thread T%u", o.holder - 1);
  else if (o.readers)
    out->Append(" is held for reading by %u thread%s", o.readers,
                o.readers == 1 ? "" : "s");
  else if (!o.acquired && o.first_seen) {
    out->Append(" was first observed by thread T%u at:\n", o.first_seen_thread);
    PrintStackId(out, o.first_seen, nullptr);
    return;
  }
  out->Append("\n");
  if (o.acquired) {
    AppendObjectName(out, o);
    out->Append(" was acquired at:\n");
    PrintStackId(out, o.acquired, nullptr);
  }
  if (o.first_seen) {
    AppendObjectName(out, o);
    out->Append(" was first observed by thread T%u at:\n", o.first_seen_thread);
    PrintStackId(out, o.first_seen, nullptr);
  }
}

void AppendSummary(TextBuffer *out, const char *kind,
                   const SymbolizedFrame &top) {
  out->Append("SUMMARY: HybridRace: %s ", kind);
  if (top.file[0])
    out->Append("%s:%d", top.file, top.line);
  else
    out->Append("(%s+0x%zx)", top.module, top.module_offset);
  out->Append(" in %s\n==================\n",
              top.function[0] ? top.function : "??");
}

// Writes the finished report; reports.mu is held.
void EmitReport(const TextBuffer &out) {
  char notice[768];
  if (TakeSymbolizerNotice(notice, sizeof(notice)))
    WriteToFd(OutputFd(), notice, internal_strlen(notice));
  WriteToFd(OutputFd(), out.data(), out.length());
  if (ctx->flags.halt_on_error) {
    fflush(nullptr);
    _exit(ctx->flags.exitcode);
  }
}

} // namespace

void ReportRace(ThreadState *thr, uptr pc, uptr addr, uptr size, bool write,
                bool atomic, const RaceInfo &race) {
  ScopedInRuntime in_rtl;
  SegmentInfo prev_seg = ctx->segments.Get(race.prev_segment);
  ThreadContext *prev_tc = ctx->threads.ContextOfSlot(prev_seg.slot);
  AccessRecord prev;
  bool have_prev =
      prev_tc && prev_tc->trace.FindAccess(race.prev_segment, addr, size,
                                           race.prev_kind, &prev);
  SpinMutexLock l(&reports.mu);
  if (AlreadyReported(pc, have_prev ? prev.pc : 0))
    return;
  reports.count++;
  TextBuffer out(reports.buffer, sizeof(reports.buffer));
  uptr stack[kMaxFramesShown];
  u32 depth = CaptureStack(thr, pc, stack, kMaxFramesShown);
  out.Append("==================\n");
  out.Append("WARNING: HybridRace: data race (pid=%d)\n",
             static_cast<int>(getpid()));
  const char *what = write ? (atomic ? "Atomic write" : "Write")
                           : (atomic ? "Atomic read" : "Read");
  out.Append("  %s of size %zu at 0x%zx by thread T%u (locks held: ", what,
             size, addr, thr->thread_id);
  PrintLockSet(&out, thr->locks.All(&ctx->locksets));
  out.Append("):\n");
  SymbolizedFrame top = {};
  PrintStack(&out, stack, depth, &top);
  if (have_prev) {
    out.Append("  Previous %s%s of size %zu at 0x%zx by thread T%u (locks "
               "held: ",
               prev.is_atomic ? "atomic " : "",
               KindName(prev.is_write ? AccessKind::kWrite : AccessKind::kRead),
               prev.size, prev.addr, prev_seg.thread_id);
    PrintLockSet(&out, prev.locks);
    out.Append("):\n");
    PrintStack(&out, &prev.pc, 1, nullptr);
  } else {
    out.Append("  Previous %s%s by thread T%u:\n    <not in the thread's "
               "recent history>\n",
               race.prev_atomic ? "atomic " : "", KindName(race.prev_kind),
               prev_seg.thread_id);
  }
  ExplainCause(&out, race);
  DescribeLocation(&out, addr);
  DescribeThread(&out, thr->thread_id);
  if (prev_seg.thread_id != thr->thread_id)
    DescribeThread(&out, prev_seg.thread_id);
  AppendSummary(&out, "data race", top);
  EmitReport(out);
}

void ReportMisuse(ThreadState *thr, uptr pc, Misuse kind,
                  const ObjectDescription *objects, u32 object_count,
                  StackId stack, const char *what, ...) {
  ScopedInRuntime in_rtl;
  SpinMutexLock l(&reports.mu);
  u32 k = static_cast<u32>(kind);
  // Tagged so that no pair of a race (two code addresses) can match it.
  if (AlreadyReported(pc, k + 1))
    return;
  reports.count++;
  TextBuffer out(reports.buffer, sizeof(reports.buffer));
  out.Append("==================\n");
  out.Append("WARNING: HybridRace: %s (pid=%d)\n", kMisuseTitles[k],
             static_cast<int>(getpid()));
  out.Append("  Thread T%u ", thr->thread_id);
  va_list ap;
  va_start(ap, what);
  out.AppendV(what, ap);
  va_end(ap);
  out.Append(":\n");
  SymbolizedFrame top = {};
  if (stack) {
    PrintStackId(&out, stack, &top);
  } else {
    uptr frames[kMaxFramesShown];
    u32 depth = CaptureStack(thr, pc, frames, kMaxFramesShown);
    PrintStack(&out, frames, depth, &top);
  }
  for (u32 i = 0; i < object_count; i++)
    DescribeObject(&out, objects[i]);
  DescribeThread(&out, thr->thread_id);
  for (u32 i = 0; i < object_count; i++)
    if (objects[i].holder && objects[i].holder - 1 != thr->thread_id)
      DescribeThread(&out, objects[i].holder - 1);
  AppendSummary(&out, kMisuseKinds[k], top);
  EmitReport(out);
}

void ReportLockOrderInversion(const LockOrderEdge *cycle,
                              const LockIdentity *locks, u32 shown,
                              u32 length) {
  ScopedInRuntime in_rtl;
  SpinMutexLock l(&reports.mu);
  reports.count++;
  TextBuffer out(reports.buffer, sizeof(reports.buffer));
  out.Append("==================\n");
  out.Append("WARNING: HybridRace: lock-order inversion (potential "
             "deadlock) (pid=%d)\n",
             static_cast<int>(getpid()));
  out.Append("  Cycle of %u locks in the lock-order graph: ", length);
  for (u32 i = 0; i < shown; i++)
    out.Append("M%u => ", cycle[i].from);
  if (shown < length)
    out.Append("... (%u more) => ", length - shown);
  out.Append("M%u\n", cycle[0].from);
  SymbolizedFrame top = {};
  // The edge that closed the cycle (this thread, now) first.
  for (u32 i = 0; i < shown; i++) {
    const LockOrderEdge &e = cycle[i];
    out.Append("\n  Mutex M%u acquired here while holding mutex M%u by "
               "thread T%u:\n",
               e.to, e.from, e.thread_id);
    PrintStackId(&out, e.to_stack, i ? nullptr : &top);
    out.Append("  Mutex M%u previously acquired by the same thread here:\n",
               e.from);
    PrintStackId(&out, e.from_stack, nullptr);
  }
  out.Append("\n");
  for (u32 i = 0; i < shown; i++) {
    out.Append("  Mutex M%u at 0x%zx", cycle[i].from, locks[i].addr);
    if (locks[i].first_seen) {
      out.Append(" was first observed by thread T%u at:\n",
                 locks[i].first_seen_thread);
      PrintStackId(&out, locks[i].first_seen, nullptr);
    } else {
      out.Append("\n");
    }
  }
  // Each thread of the cycle once, at its first edge.
  for (u32 i = 0; i < shown; i++) {
    bool earlier = false;
    for (u32 j = 0; j < i; j++)
      earlier |= cycle[j].thread_id == cycle[i].thread_id;
    if (!earlier)
      DescribeThread(&out, cycle[i].thread_id);
  }
  AppendSummary(&out, "lock-order-inversion (potential deadlock)", top);
  EmitReport(out);
}

void ReportsForkChild() {
  if (reports.fd_opened && reports.fd > 2)
    close(reports.fd);
  reports.fd_opened = false;
  reports.count = 0;
}

void FinishReports() {
  u32 count;
  {
    SpinMutexLock l(&reports.mu);
    count = reports.count;
  }
  if (!count)
    return;
  // The program's buffered output first, so the summary line comes last.
  fflush(nullptr);
  char line[64];
  TextBuffer text(line, sizeof(line));
  text.Append("HybridRace: reported %u warning%s\n", count,
              count == 1 ? "" : "s");
  WriteToFd(OutputFd(), text.data(), text.length());
  if (ctx->flags.exitcode)
    _exit(ctx->flags.exitcode);
}

} // namespace hrace
