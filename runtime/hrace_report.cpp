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
#include "hrace_ndr.h"
#include "hrace_report_desc.h"
#include "hrace_rtl.h"
#include "hrace_suppressions.h"
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
  ReportDesc desc;
  // The exit handler wrote the json or sarif file.
  bool machine_written;
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

// The source location of the call at return address pc, as one word: its
// file, line and column hashed, with bit 62 set, which no code address has,
// so that the two kinds of key never meet in the table. pc itself where the
// symbolizer gives no line (and 0 for none).
uptr SourceKey(uptr pc) {
  SymbolizedFrame f;
  if (!pc || !SymbolizeCode(pc - 1, &f, 1) || !f.file[0] || f.line <= 0)
    return pc;
  // FNV-1a.
  constexpr u64 kPrime = 1099511628211ull;
  u64 h = 14695981039346656037ull;
  for (const char *c = f.file; *c; c++)
    h = (h ^ static_cast<u8>(*c)) * kPrime;
  h = (h ^ static_cast<u32>(f.line)) * kPrime;
  h = (h ^ static_cast<u32>(f.column)) * kPrime;
  return (h & ~(uptr(3) << 62)) | (uptr(1) << 62);
}

// "{M1, M2}" or "none".
void PrintLocks(TextBuffer *out, const LockId *locks, u32 n) {
  if (!n) {
    out->Append("none");
    return;
  }
  out->Append("{");
  for (u32 i = 0; i < n; i++)
    out->Append("%sM%u", i ? ", " : "", locks[i]);
  out->Append("}");
}

void PrintLockSet(TextBuffer *out, LockSetId id) {
  if (id == kUnknownLockSet) {
    out->Append("unknown (a lock set that did not fit the table)");
    return;
  }
  u32 n;
  const LockId *locks = ctx->locksets.Members(id, &n);
  PrintLocks(out, locks, n);
}

// An access section: "<What> of size N at A by thread T<n> (locks held: L)".
ReportSection *AddAccess(ReportDesc *r, SectionRole role, const char *what,
                         bool write, bool atomic, uptr addr, uptr size,
                         u32 thread_id, LockSetId locks) {
  char lock_text[256];
  TextBuffer l(lock_text, sizeof(lock_text));
  PrintLockSet(&l, locks);
  ReportSection *s = r->Add(role,
                            "%s of size %zu at 0x%zx by thread T%u "
                            "(locks held: %s)",
                            what, size, addr, thread_id, lock_text);
  s->thread = static_cast<int>(thread_id);
  s->has_access = true;
  s->is_write = write;
  s->is_atomic = atomic;
  s->addr = addr;
  s->size = size;
  s->has_locks = true;
  s->locks = locks;
  return s;
}

void AddStackId(ReportDesc *r, ReportSection *s, StackId id, bool take_top) {
  uptr frames[StackDepot::kMaxFrames];
  bool lost;
  u32 n = ctx->stacks.Get(id, frames, StackDepot::kMaxFrames, &lost);
  r->AddStack(s, frames, n, take_top);
  s->frames_lost = lost;
}

// The thread whose stack holds addr.
bool FindStackOwner(uptr addr, u32 *thread_id) {
  SpinMutexLock l(ctx->threads.mutex());
  for (u32 slot = 0; slot < ctx->threads.slots_in_use(); slot++) {
    ThreadContext *tc = ctx->threads.ContextOfSlot(slot);
    if (tc && tc->status != ThreadStatus::kFree && addr >= tc->stack_beg &&
        addr < tc->stack_end) {
      *thread_id = tc->thread_id;
      return true;
    }
  }
  return false;
}

bool DescribeStack(ReportDesc *r, uptr addr) {
  u32 thread_id;
  if (!FindStackOwner(addr, &thread_id))
    return false;
  r->Add(SectionRole::kLocation, "Location is stack of thread T%u", thread_id);
  return true;
}

bool DescribeGlobal(ReportDesc *r, uptr addr) {
  char name[256], module[256];
  uptr start, size, module_offset;
  if (!SymbolizeData(addr, name, sizeof(name), &start, &size, module,
                     sizeof(module), &module_offset) ||
      addr < start || addr >= start + (size ? size : 1))
    return false;
  r->Add(SectionRole::kLocation,
         "Location is global '%s' of size %zu at 0x%zx (%s+0x%zx)", name, size,
         start, module, module_offset - (addr - start));
  internal_strlcpy(r->location_name, name, sizeof(r->location_name));
  return true;
}

bool DescribeHeap(ReportDesc *r, uptr addr) {
  uptr beg, size;
  if (!FindHeapBlock(addr, &beg, &size))
    return false;
  r->Add(SectionRole::kLocation,
         "Location is heap block of size %zu at 0x%zx, offset %zu", size, beg,
         addr - beg);
  return true;
}

bool DescribeFd(ReportDesc *r, uptr addr) {
  int fd;
  if (!FdOfAddress(addr, &fd))
    return false;
  r->Add(SectionRole::kLocation, "Location is file descriptor %d", fd);
  return true;
}

// Cheapest first: descriptors and stacks are lists, the heap a walk bounded
// by a chunk, globals a symbolizer query.
void DescribeLocation(ReportDesc *r, uptr addr) {
  if (!DescribeFd(r, addr) && !DescribeStack(r, addr) && !DescribeHeap(r, addr))
    DescribeGlobal(r, addr);
}

void DescribeThread(ReportDesc *r, u32 thread_id) {
  StackId created = 0;
  {
    SpinMutexLock l(ctx->threads.mutex());
    ThreadContext *tc = ctx->threads.FindByThreadId(thread_id);
    if (!tc) {
      r->Add(SectionRole::kThread,
             "Thread T%u has exited and its slot was reused", thread_id)
          ->thread = static_cast<int>(thread_id);
      return;
    }
    char text[sizeof(ReportSection::text)];
    TextBuffer t(text, sizeof(text));
    t.Append("Thread T%u", thread_id);
    if (tc->name[0])
      t.Append(" '%s'", tc->name);
    t.Append(" (tid=%d, %s)", tc->os_tid,
             tc->status == ThreadStatus::kRunning ? "running" : "finished");
    if (thread_id == 0)
      t.Append(" is the main thread");
    else if (tc->adopted)
      t.Append(" was not created by pthread_create");
    else
      t.Append(" created by T%u at", tc->parent_id);
    ReportSection *s = r->Add(SectionRole::kThread, "%s", text);
    s->thread = static_cast<int>(thread_id);
    if (thread_id == 0 || tc->adopted)
      return;
    created = tc->creation_stack;
  }
  // Symbolised outside the registry's lock.
  AddStackId(r, &r->sections[r->section_count - 1], created, false);
}

const char *KindName(AccessKind kind) {
  return kind == AccessKind::kWrite  ? "write"
         : kind == AccessKind::kRead ? "read"
                                     : "access";
}

// The segment of the latest access of `kind` (plain unless `atomic_too`)
// to [addr, addr+size) in this generation by thread_id (by any thread but
// `self` for kAnyOtherThread), or 0: a race with accesses the cell keeps
// the threads of, not the segments.
SegmentId LatestAccess(u32 thread_id, u32 self, uptr addr, uptr size,
                       AccessKind kind, bool atomic_too) {
  u32 generation = ctx->segments.generation();
  AccessRecord access;
  SegmentId seg;
  SpinMutexLock l(ctx->threads.mutex());
  for (u32 slot = 0; slot < ctx->threads.slots_in_use(); slot++) {
    ThreadContext *tc = ctx->threads.ContextOfSlot(slot);
    // A joined thread's slot keeps its trace until the slot is reused.
    bool wanted = tc && (thread_id == kAnyOtherThread
                             ? tc->thread_id != self
                             : tc->thread_id == thread_id);
    if (wanted && tc->trace.FindLatestAccess(generation, addr, size, kind,
                                             &access, &seg, !atomic_too))
      return seg;
  }
  return 0;
}

// One sentence on why the state machine called this a race.
void ExplainCause(ReportDesc *r, const RaceInfo &race) {
  char text[sizeof(ReportSection::text)];
  TextBuffer out(text, sizeof(text));
  out.Append("Detected by msm=%s: ", MsmName(ctx->flags.msm));
  if (race.cause == RaceCause::kAtomicUnordered) {
    out.Append("one access is atomic, the other is not, and neither "
               "happens before the other.");
  } else if (ctx->flags.msm == Msm::kHb &&
             race.cause == RaceCause::kReadersUnordered) {
    out.Append("another thread read the location after this thread did, "
               "and this thread has learned nothing from other threads "
               "since.");
  } else if (ctx->flags.msm == Msm::kHb) {
    out.Append("neither access happens before the other.");
  } else if (race.cause == RaceCause::kUnordered) {
    out.Append("the previous access does not happen before this one and "
               "no lock protects both.");
  } else if (race.cause == RaceCause::kSharedWithPlainAccess) {
    out.Append("the candidate lock set ");
    PrintLockSet(&out, race.candidates);
    out.Append(" of this shared location ran empty: this atomic access "
               "holds ");
    PrintLockSet(&out, race.access_locks);
    out.Append(", and T%u, a thread that shared the location, accessed it "
               "plainly.",
               race.prev_thread);
  } else if (race.cause == RaceCause::kReadersUnordered) {
    out.Append("the candidate lock set ");
    PrintLockSet(&out, race.candidates);
    out.Append(" of this shared location ran empty: this write holds ");
    PrintLockSet(&out, race.access_locks);
    out.Append(", and other threads read the location after this thread "
               "did, while it has learned nothing from other threads "
               "since.");
  } else {
    out.Append("the candidate lock set ");
    PrintLockSet(&out, race.candidates);
    out.Append(" of this shared location ran empty: this access holds ");
    PrintLockSet(&out, race.access_locks);
    out.Append(" and does not happen after the access the location "
               "remembers.");
  }
  r->Add(SectionRole::kCause, "%s", text);
}

struct MisuseKind {
  const char *kind;
  const char *title;
  SuppressionType suppression;
};
const MisuseKind kMisuseKinds[] = {
#define HRACE_MISUSE(name, kind, title, suppression)                           \
  {kind, title, SuppressionType::k##suppression},
#include "hrace_misuse.inc"
#undef HRACE_MISUSE
};

// Capitalised for the start of a line.
void AppendNoun(TextBuffer *out, const char *noun) {
  char first = noun[0];
  if (first >= 'a' && first <= 'z')
    first = static_cast<char>(first - 'a' + 'A');
  out->Append("%c%s", first, noun + 1);
}

void AppendObjectName(TextBuffer *out, const ObjectDescription &o) {
  AppendNoun(out, o.noun);
  if (o.lock_id)
    out->Append(" M%u", o.lock_id);
}

ReportSection *AddObjectSection(ReportDesc *r, const ObjectDescription &o,
                                const char *what, ...)
    __attribute__((format(printf, 3, 4)));
ReportSection *AddObjectSection(ReportDesc *r, const ObjectDescription &o,
                                const char *what, ...) {
  char text[sizeof(ReportSection::text)];
  TextBuffer t(text, sizeof(text));
  AppendObjectName(&t, o);
  va_list ap;
  va_start(ap, what);
  t.AppendV(what, ap);
  va_end(ap);
  return r->Add(SectionRole::kMutex, "%s", text);
}

void FirstObserved(ReportDesc *r, const ObjectDescription &o,
                   const char *prefix) {
  ReportSection *s =
      AddObjectSection(r, o, "%s was first observed by thread T%u at", prefix,
                       o.first_seen_thread);
  AddStackId(r, s, o.first_seen, false);
}

void DescribeObject(ReportDesc *r, const ObjectDescription &o) {
  char at[32];
  TextBuffer a(at, sizeof(at));
  a.Append(" at 0x%zx", o.addr);
  if (o.holder)
    AddObjectSection(r, o, "%s is held by thread T%u", at, o.holder - 1);
  else if (o.readers)
    AddObjectSection(r, o, "%s is held for reading by %u thread%s", at,
                     o.readers, o.readers == 1 ? "" : "s");
  else if (!o.acquired && o.first_seen) {
    FirstObserved(r, o, at);
    return;
  } else
    AddObjectSection(r, o, "%s", at);
  if (o.acquired)
    AddStackId(r, AddObjectSection(r, o, " was acquired at"), o.acquired,
               false);
  if (o.first_seen)
    FirstObserved(r, o, "");
}

// Prints the finished report, or counts it as suppressed; reports.mu is
// held.
void EmitReport(const ReportDesc &r) {
  if (IsSuppressed(r))
    return;
  reports.count++;
  TextBuffer out(reports.buffer, sizeof(reports.buffer));
  RenderText(r, &out);
  char notice[768];
  if (TakeSymbolizerNotice(notice, sizeof(notice)))
    WriteToFd(OutputFd(), notice, internal_strlen(notice));
  WriteToFd(OutputFd(), out.data(), out.length());
  if (ctx->flags.report_format != ReportFormat::kText) {
    CollectMachineReport(r);
    // A report after the exit handler wrote the file (another thread still
    // runs) writes it again, whole.
    if (reports.machine_written)
      WriteMachineReports();
  }
  if (ctx->flags.halt_on_error) {
    WriteMachineReports();
    fflush(nullptr);
    _exit(ctx->flags.exitcode);
  }
}

} // namespace

void ReportRace(ThreadState *thr, uptr pc, uptr addr, uptr size, bool write,
                bool atomic, const RaceInfo &race) {
  ScopedInRuntime in_rtl;
  SegmentId prev_segment = race.prev_segment;
  u32 prev_thread = race.prev_thread;
  if (race.cause == RaceCause::kReadersUnordered)
    prev_segment = LatestAccess(prev_thread, thr->thread_id, addr, size,
                                AccessKind::kRead, true);
  else if (race.cause == RaceCause::kSharedWithPlainAccess)
    prev_segment = LatestAccess(prev_thread, thr->thread_id, addr, size,
                                race.prev_kind, false);
  SegmentInfo prev_seg = ctx->segments.Get(prev_segment);
  if (prev_segment)
    prev_thread = prev_seg.thread_id;
  ThreadContext *prev_tc = ctx->threads.ContextOfSlot(prev_seg.slot);
  AccessRecord prev;
  bool have_prev =
      prev_segment && prev_tc &&
      prev_tc->trace.FindAccess(
          prev_segment, GenerationOf(prev_segment, ctx->segments.generation()),
          addr, size, race.prev_kind, &prev,
          race.cause == RaceCause::kSharedWithPlainAccess);
  SpinMutexLock l(&reports.mu);
  if (AlreadyReported(pc, have_prev ? prev.pc : 0))
    return;
  ReportDesc &r = reports.desc;
  r.Reset(SuppressionType::kRace, "data-race", "data race");
  internal_strlcpy(r.title, "data race", sizeof(r.title));
  uptr stack[kMaxFramesShown];
  u32 depth = CaptureStack(thr, pc, stack, kMaxFramesShown);
  const char *what = write ? (atomic ? "Atomic write" : "Write")
                           : (atomic ? "Atomic read" : "Read");
  ReportSection *cur =
      AddAccess(&r, SectionRole::kAccess, what, write, atomic, addr, size,
                thr->thread_id, thr->locks.All(&ctx->locksets));
  r.AddStack(cur, stack, depth, true);
  if (have_prev) {
    char prev_what[32];
    TextBuffer p(prev_what, sizeof(prev_what));
    p.Append("Previous %s%s", prev.is_atomic ? "atomic " : "",
             KindName(prev.is_write ? AccessKind::kWrite : AccessKind::kRead));
    ReportSection *s = AddAccess(&r, SectionRole::kPreviousAccess, prev_what,
                                 prev.is_write, prev.is_atomic, prev.addr,
                                 prev.size, prev_thread, prev.locks);
    // The access's own frame, then as many callers as history_depth shows.
    stack[0] = prev.pc;
    bool lost = false;
    u32 shown = ctx->flags.history_depth ? ctx->flags.history_depth : 1;
    u32 n = 1 + ctx->stacks.Get(prev.callers, stack + 1, shown - 1, &lost);
    r.AddStack(s, stack, n, false);
    s->frames_lost = lost;
  } else if (prev_thread == kAnyOtherThread) {
    ReportSection *s = r.Add(SectionRole::kPreviousAccess,
                             "Previous %s by another thread",
                             KindName(race.prev_kind));
    s->has_stack = true;
    s->missing = "<not in any thread's recent history>";
  } else {
    ReportSection *s =
        r.Add(SectionRole::kPreviousAccess, "Previous %s%s by thread T%u",
              race.prev_atomic ? "atomic " : "", KindName(race.prev_kind),
              prev_thread);
    s->thread = static_cast<int>(prev_thread);
    s->has_stack = true;
    s->missing = "<not in the thread's recent history>";
  }
  ExplainCause(&r, race);
  DescribeLocation(&r, addr);
  DescribeThread(&r, thr->thread_id);
  if (prev_thread != thr->thread_id && prev_thread != kAnyOtherThread)
    DescribeThread(&r, prev_thread);
  EmitReport(r);
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
  const MisuseKind &m = kMisuseKinds[k];
  ReportDesc &r = reports.desc;
  r.Reset(m.suppression, m.kind, m.kind);
  internal_strlcpy(r.title, m.title, sizeof(r.title));
  char text[sizeof(ReportSection::text)];
  TextBuffer t(text, sizeof(text));
  t.Append("Thread T%u ", thr->thread_id);
  va_list ap;
  va_start(ap, what);
  t.AppendV(what, ap);
  va_end(ap);
  ReportSection *s = r.Add(SectionRole::kContext, "%s", text);
  s->thread = static_cast<int>(thr->thread_id);
  if (stack) {
    AddStackId(&r, s, stack, true);
  } else {
    uptr frames[kMaxFramesShown];
    u32 depth = CaptureStack(thr, pc, frames, kMaxFramesShown);
    r.AddStack(s, frames, depth, true);
  }
  for (u32 i = 0; i < object_count; i++)
    DescribeObject(&r, objects[i]);
  DescribeThread(&r, thr->thread_id);
  for (u32 i = 0; i < object_count; i++)
    if (objects[i].holder && objects[i].holder - 1 != thr->thread_id)
      DescribeThread(&r, objects[i].holder - 1);
  EmitReport(r);
}

namespace {

ReportSection *AddNdrAccess(ReportDesc *r, SectionRole role, bool write,
                            const NdrAccessDesc &a) {
  char locks[256];
  TextBuffer l(locks, sizeof(locks));
  PrintLocks(&l, a.locks, a.lock_count);
  ReportSection *s =
      r->Add(role,
             "%s of size %u at 0x%zx by thread T%u "
             "(locks held: %s)%s",
             write ? "Write" : "Read", a.size, a.addr, a.thread_id, locks,
             a.parallel ? ", parallel to the read" : "");
  s->thread = static_cast<int>(a.thread_id);
  s->has_access = true;
  s->is_write = write;
  s->addr = a.addr;
  s->size = a.size;
  return s;
}

// The variable's name for a correlation: its source name from the pass, else
// a global's name (and offset), else its address and where it lies: a heap
// block, a thread's stack.
void AppendVariable(TextBuffer *out, uptr addr, const char *source_name) {
  if (source_name) {
    out->Append("'%s'", source_name);
    return;
  }
  char name[256], module[256];
  uptr start, size, module_offset;
  if (SymbolizeData(addr, name, sizeof(name), &start, &size, module,
                    sizeof(module), &module_offset) &&
      addr >= start && addr < start + (size ? size : 1)) {
    if (addr == start)
      out->Append("'%s'", name);
    else
      out->Append("'%s+%zu'", name, addr - start);
    return;
  }
  out->Append("0x%zx", addr);
  uptr beg;
  if (FindHeapBlock(addr, &beg, &size)) {
    out->Append(" (heap block of size %zu at 0x%zx, offset %zu)", size, beg,
                addr - beg);
    return;
  }
  u32 thread_id;
  if (FindStackOwner(addr, &thread_id))
    out->Append(" (stack of thread T%u)", thread_id);
}

const char *CorrelationName(CorrelationKind k) {
  switch (k) {
  case CorrelationKind::kVertical:
    return "vertical";
  case CorrelationKind::kControl:
    return "control";
  case CorrelationKind::kParental:
    return "parental";
  case CorrelationKind::kHorizontal:
    return "horizontal";
  }
  return "?";
}

// The access's frame, then its callers' as history_depth allows.
void AddNdrStack(ReportDesc *r, ReportSection *s, const NdrAccessDesc &a,
                 bool take_top) {
  uptr stack[kMaxFramesShown];
  bool lost = false;
  u32 shown = ctx->flags.history_depth ? ctx->flags.history_depth : 1;
  if (shown > kMaxFramesShown)
    shown = kMaxFramesShown;
  u32 n = ctx->stacks.Get(a.stack, stack, shown, &lost);
  r->AddStack(s, stack, n, take_top);
  s->frames_lost = lost;
}

void AddCorrelation(ReportDesc *r, const Correlation &c) {
  char text[sizeof(ReportSection::text)];
  TextBuffer t(text, sizeof(text));
  t.Append("%s: ", CorrelationName(c.kind));
  AppendVariable(&t, c.from, c.from_name);
  bool symmetric = c.kind == CorrelationKind::kParental ||
                   c.kind == CorrelationKind::kHorizontal;
  t.Append(symmetric ? " <-> " : " -> ");
  AppendVariable(&t, c.to, c.to_name);
  SymbolizedFrame f;
  // The store's return address points after its call; the store is there.
  // Code without line tables gives its file at line 0: no line to show.
  if (SymbolizeCode(c.pc - 1, &f, 1) && f.file[0] && f.line > 0) {
    const char *base = f.file;
    for (const char *p = f.file; *p; p++)
      if (*p == '/')
        base = p + 1;
    t.Append(" (%s:%d)", base, f.line);
  }
  r->Add(SectionRole::kContext, "%s", text)->indent = 1;
}

} // namespace

void ReportNonDeterministicRead(ThreadState *thr, const NdrReport &report) {
  (void)thr;
  uptr write_pc = report.dep_count ? report.deps[0].pc : 0;
  SpinMutexLock l(&reports.mu);
  // Tagged: no pair of a data race (two code addresses) matches it. The
  // code addresses first, which costs no symbolizer round trip, then their
  // source lines: one line the compiler copied (inlined at two call sites,
  // a loop's test before and inside it) is one pair to the user.
  constexpr uptr kNdrTag = uptr(1) << 63;
  if (AlreadyReported(report.read.pc, write_pc | kNdrTag))
    return;
  uptr read_line = SourceKey(report.read.pc), write_line = SourceKey(write_pc);
  // Without lines the keys are the addresses just remembered.
  bool lines = read_line != report.read.pc || write_line != write_pc;
  if (lines && AlreadyReported(read_line, write_line | kNdrTag))
    return;
  ReportDesc &r = reports.desc;
  r.Reset(SuppressionType::kRace, "non-deterministic-read",
          "non-deterministic read");
  internal_strlcpy(r.title, "non-deterministic read", sizeof(r.title));
  ReportSection *s = AddNdrAccess(&r, SectionRole::kAccess, false, report.read);
  AddNdrStack(&r, s, report.read, true);
  r.Add(SectionRole::kContext, "has %u write dependenc%s:", report.dep_count,
        report.dep_count == 1 ? "y" : "ies");
  u32 shown = report.dep_count < NdrReport::kMaxDeps ? report.dep_count
                                                     : NdrReport::kMaxDeps;
  for (u32 i = 0; i < shown; i++) {
    s = AddNdrAccess(&r, SectionRole::kPreviousAccess, true, report.deps[i]);
    s->indent = 1;
    AddNdrStack(&r, s, report.deps[i], false);
  }
  if (report.correlation_count) {
    r.Add(SectionRole::kContext, "Violated correlations:");
    for (u32 i = 0; i < report.correlation_count; i++)
      AddCorrelation(&r, report.correlations[i]);
  }
  DescribeLocation(&r, report.read.addr);
  DescribeThread(&r, report.read.thread_id);
  for (u32 i = 0; i < shown; i++) {
    bool described = report.deps[i].thread_id == report.read.thread_id;
    for (u32 j = 0; j < i && !described; j++)
      described = report.deps[j].thread_id == report.deps[i].thread_id;
    if (!described)
      DescribeThread(&r, report.deps[i].thread_id);
  }
  EmitReport(r);
}

void ReportLockOrderInversion(const LockOrderEdge *cycle,
                              const LockIdentity *locks, u32 shown,
                              u32 length) {
  ScopedInRuntime in_rtl;
  SpinMutexLock l(&reports.mu);
  ReportDesc &r = reports.desc;
  r.Reset(SuppressionType::kDeadlock, "lock-order-inversion",
          "lock-order-inversion (potential deadlock)");
  internal_strlcpy(r.title, "lock-order inversion (potential deadlock)",
                   sizeof(r.title));
  char text[sizeof(ReportSection::text)];
  TextBuffer t(text, sizeof(text));
  t.Append("Cycle of %u locks in the lock-order graph: ", length);
  for (u32 i = 0; i < shown; i++)
    t.Append("M%u => ", cycle[i].from);
  if (shown < length)
    t.Append("... (%u more) => ", length - shown);
  t.Append("M%u", cycle[0].from);
  r.Add(SectionRole::kContext, "%s", text);
  // The edge that closed the cycle (this thread, now) first.
  for (u32 i = 0; i < shown; i++) {
    const LockOrderEdge &e = cycle[i];
    ReportSection *s = r.Add(SectionRole::kLockOrderEdge,
                             "Mutex M%u acquired here while holding mutex M%u "
                             "by thread T%u",
                             e.to, e.from, e.thread_id);
    s->blank_before = true;
    s->thread = static_cast<int>(e.thread_id);
    AddStackId(&r, s, e.to_stack, i == 0);
    s = r.Add(SectionRole::kLockOrderEdge,
              "Mutex M%u previously acquired by the same thread here", e.from);
    s->thread = static_cast<int>(e.thread_id);
    AddStackId(&r, s, e.from_stack, false);
  }
  for (u32 i = 0; i < shown; i++) {
    ReportSection *s;
    if (locks[i].first_seen) {
      s = r.Add(SectionRole::kMutex,
                "Mutex M%u at 0x%zx was first observed by thread T%u at",
                cycle[i].from, locks[i].addr, locks[i].first_seen_thread);
      AddStackId(&r, s, locks[i].first_seen, false);
    } else {
      s = r.Add(SectionRole::kMutex, "Mutex M%u at 0x%zx", cycle[i].from,
                locks[i].addr);
    }
    s->blank_before = i == 0;
  }
  // Each thread of the cycle once, at its first edge.
  for (u32 i = 0; i < shown; i++) {
    bool earlier = false;
    for (u32 j = 0; j < i; j++)
      earlier |= cycle[j].thread_id == cycle[i].thread_id;
    if (!earlier)
      DescribeThread(&r, cycle[i].thread_id);
  }
  EmitReport(r);
}

void ReportsForkChild() {
  if (reports.fd_opened && reports.fd > 2)
    close(reports.fd);
  reports.fd_opened = false;
  reports.count = 0;
  reports.machine_written = false;
  MachineReportsForkChild();
}

void FinishReports() {
  u32 count;
  {
    // Under the report lock: a report being written by another thread goes
    // into the file whole, and one after it rewrites the file (EmitReport).
    SpinMutexLock l(&reports.mu);
    count = reports.count;
    if (count)
      WriteMachineReports();
    reports.machine_written = true;
    PrintSuppressionCounts();
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
