//===-- hrace_rtl.cpp - The runtime's global state and events -------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_rtl.h"

#include "../interceptors/hrace_interceptors.h"
#include "../shadow/hrace_shadow.h"
#include "hrace_access.h"
#include "hrace_alloc.h"
#include "hrace_deadlock.h"
#include "hrace_interface.h"
#include "hrace_libc.h"
#include "hrace_limits.h"
#include "hrace_misuse.h"
#include "hrace_ndr.h"
#include "hrace_report.h"
#include "hrace_signal.h"
#include "hrace_suppressions.h"
#include "hrace_unwind.h"

#include <new>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hrace {

Context *ctx;

namespace {

alignas(64) char context_storage[sizeof(Context)];
char options_storage[4096];
// The environment as handed to .preinit_array functions: they run before
// libc has set up `environ`, so getenv() would find nothing yet.
char **preinit_envp;

const char *GetEnv(const char *name) {
  if (!preinit_envp)
    return getenv(name);
  uptr len = internal_strlen(name);
  for (char **e = preinit_envp; *e; e++)
    if (!internal_strncmp(*e, name, len) && (*e)[len] == '=')
      return *e + len + 1;
  return nullptr;
}

void InitFlags() {
  Flags *f = &ctx->flags;
  f->SetDefaults();
  char error[512];
  if (!ParseFlags(f, GetEnv("HRACE_OPTIONS"), options_storage,
                  sizeof(options_storage), error, sizeof(error))) {
    Printf("%s\n", error);
    _exit(kOptionErrorExitCode);
  }
  if (f->help) {
    Flags defaults;
    defaults.SetDefaults();
    PrintFlagHelp(defaults);
  }
}

// Runs after the program's own atexit handlers (it is registered first):
// flush what the program wrote, then turn reports into the exit code.
void AtExit() {
  ThreadState *thr = cur_thread();
  thr->in_rtl++;
  CheckThreadLeaks(thr);
  NdrAtExit(thr);
  thr->exiting = true;
  if (ctx->flags.verbosity) {
    SpinMutexLock l(ctx->lock_order.mutex());
    Printf("HybridRace: lock-order graph: %u locks, %u edges\n",
           ctx->lock_order.lock_count(), ctx->lock_order.edge_count());
  }
  FinishReports();
}

int CurrentOsTid() { return static_cast<int>(syscall(SYS_gettid)); }

void StartGenerationForFullSetTable(u32 full_generation);

} // namespace

void Initialize() {
  static bool in_progress;
  if (ctx || in_progress)
    return;
  in_progress = true;
  ThreadState *thr = cur_thread();
  thr->in_rtl++;
  // First: the runtime itself calls some of them (strtol parsing the flags,
  // vsnprintf printing), and inside the runtime an interceptor goes straight
  // to the real function.
  InitLibcCallInterceptors();
  Context *c = new (context_storage) Context();
  ctx = c;
  InitFlags();
  InitSuppressions();
  active_msm = c->flags.msm;
  InitShadow();
  NdrInit();
  if (kSplitBlocksLimit)
    LimitSplitBlocks(kSplitBlocksLimit);
  InitHeapBlocks();
  InitInterceptors();
  c->segments.Init(
      Capacity(kMaxPagesPerGeneration, kSegmentPagesPerGenerationLimit));
  c->syncs.Init();
  c->syncs.SetForgetLockHook(LockOrderForget);
  // A set that does not fit is rare and costs one access its precision
  // (StartGenerationForFullSetTable): said at verbosity=1, as for thread
  // sets.
  c->locksets.Init(Capacity(kMaxLockSets, kLockSetsLimit), kUnknownLockSet,
                   "lock sets", c->flags.verbosity >= 1);
  // Recycled with the shadow's generations, as thread sets are below.
  c->locksets.EnableRecycling(StartGenerationForFullSetTable);
  // Thread sets are recycled with the shadow's generations; only a set of
  // more than 256 threads is the overflow set, which the join rule never
  // shrinks (docs/design.md): a loss of precision, said at verbosity=1.
  c->threadsets.Init(Capacity(kMaxThreadSets, kThreadSetsLimit),
                     kThreadSetOverflow, "thread sets",
                     c->flags.verbosity >= 1);
  c->threadsets.EnableRecycling(StartGenerationForFullSetTable);
  c->threads.Init();
  ThreadContext *main = c->threads.Create(0);
  c->initialized = true;
  ThreadStart(thr, main);
  atexit(AtExit);
  if (c->flags.verbosity)
    Printf("HybridRace: initialised (msm=%s)\n", MsmName(c->flags.msm));
  LeaveRuntime(thr);
}

namespace {

// ANNOTATE_BENIGN_RACE ranges, kept to be marked again after a clear.
struct BenignRace {
  uptr addr;
  uptr size;
};
SpinMutex benign_races_mu;
BenignRace *benign_races;
u32 benign_race_count, benign_race_capacity;

void MarkBenign(uptr addr, uptr size) {
  StoreShadowRange(addr, size, ShadowCell::Make(CellState::kRace, 0, 0));
}

// Generation `seen` + 1 reuses the ids of generation `seen` - 1: no thread
// may still be writing one into the shadow (ShadowWriteScope). Such a
// thread is inside an access and needs neither lock held here; but a split
// in it may wait at a closed fork gate, and the fork waits for the locks
// held here, so a closed gate ends the wait (the hazard then remains, for
// that clear only).
void WaitForShadowWritersBefore(ThreadState *thr, u32 seen) {
  AsymmetricFence();
  SpinMutexLock l(ctx->threads.mutex());
  for (u32 slot = 0; slot < ctx->threads.slots_in_use(); slot++) {
    ThreadContext *tc = ctx->threads.ContextOfSlot(slot);
    // A running thread's state stays while the registry lock is held.
    if (!tc || tc->status != ThreadStatus::kRunning || !tc->state ||
        tc->state == thr)
      continue;
    for (;;) {
      u32 writing = LoadAcquire(&tc->state->shadow_write_generation);
      if (writing == 0 || writing > seen || LoadAcquire(&fork_gate))
        break;
      sched_yield();
    }
  }
}

// This generation's segment ids are used up: every cell goes back to New
// and the next generation starts in the other half of the id space. Races
// whose first access came before the clear are missed; nothing is reported
// that did not happen. Threads that find the generation advanced meanwhile
// just retry.
// generation_mu is held; `may_wait` as below.
void StartNextSegmentGenerationLocked(ThreadState *thr, u32 seen,
                                      bool may_wait) {
  if (ctx->segments.generation() != seen)
    return;
  if (may_wait)
    WaitForShadowWritersBefore(thr, seen);
  ClearAllShadow();
  {
    SpinMutexLock b(&benign_races_mu);
    for (u32 i = 0; i < benign_race_count; i++)
      MarkBenign(benign_races[i].addr, benign_races[i].size);
  }
  // The set tables first: a thread that sees the new segment generation
  // interns into their new halves.
  ctx->threadsets.StartGeneration(seen + 1);
  ctx->locksets.StartGeneration(seen + 1);
  ctx->segments.StartNextGeneration(seen);
  if (ctx->flags.verbosity >= 1)
    Printf("HybridRace: segment generation %u started (T%u); the shadow "
           "was cleared\n",
           seen + 1, thr->thread_id);
}

void StartNextSegmentGeneration(ThreadState *thr, u32 seen) {
  // A thread that already holds a runtime lock (an atomic read-modify-write
  // holds its variable's) does not wait: a writer it waited for might need
  // that lock. The clear then goes ahead as it did before the wait existed.
  bool may_wait = runtime_locks_held == 0;
  SpinMutexLock l(&ctx->generation_mu);
  StartNextSegmentGenerationLocked(thr, seen, may_wait);
}

// The thread-set or lock-set ids of the current generation are used up: the
// next generation starts early, as when its segment ids run out. The
// caller is usually inside a ShadowWriteScope (a transition interns the
// sets it needs). If that scope's ids are of an older generation, starting
// the next one would make them two generations old; and a thread that is
// starting one may be waiting for this very scope to end, holding
// generation_mu. In both cases nothing starts here: Intern then gives the
// overflow set, which costs precision, never a false report.
void StartGenerationForFullSetTable(u32 full_generation) {
  ThreadState *thr = cur_thread();
  u32 writing = LoadRelaxed(&thr->shadow_write_generation);
  if (!writing)
    return StartNextSegmentGeneration(thr, full_generation);
  if (writing - 1 != full_generation)
    return;
  bool may_wait = runtime_locks_held == 0;
  if (!ctx->generation_mu.TryLock())
    return;
  StartNextSegmentGenerationLocked(thr, full_generation, may_wait);
  ctx->generation_mu.Unlock();
}

} // namespace

void AddBenignRace(uptr addr, uptr size) {
  SpinMutexLock l(&benign_races_mu);
  MarkBenign(addr, size);
  if (benign_race_count == benign_race_capacity) {
    u32 capacity = benign_race_capacity ? 2 * benign_race_capacity : 64;
    BenignRace *grown =
        static_cast<BenignRace *>(InternalAlloc(capacity * sizeof(BenignRace)));
    if (benign_race_count)
      internal_memcpy(grown, benign_races,
                      benign_race_count * sizeof(BenignRace));
    InternalFree(benign_races);
    benign_races = grown;
    benign_race_capacity = capacity;
  }
  benign_races[benign_race_count] = {addr, size};
  // Read without the lock by ForgetBenignRaces's quick check.
  __atomic_store_n(&benign_race_count, benign_race_count + 1, __ATOMIC_RELAXED);
}

namespace {
// Memory forgotten (freed, unmapped, a new thread's stack) is no longer
// what an annotation named: a later object there is checked.
void ForgetBenignRaces(uptr addr, uptr size) {
  if (!__atomic_load_n(&benign_race_count, __ATOMIC_RELAXED))
    return;
  SpinMutexLock l(&benign_races_mu);
  u32 kept = 0;
  for (u32 i = 0; i < benign_race_count; i++) {
    const BenignRace &r = benign_races[i];
    if (r.addr < addr + size && addr < r.addr + r.size)
      continue;
    benign_races[kept++] = r;
  }
  __atomic_store_n(&benign_race_count, kept, __ATOMIC_RELAXED);
}
} // namespace

void NewSegment(ThreadState *thr) {
  if (UNLIKELY(ndr_enabled))
    NdrSyncEvent(thr);
  thr->clock++;
  thr->vc.Set(thr->slot, thr->clock);
  u32 previous_generation = thr->segment_cursor.generation;
  for (;;) {
    u32 generation = ctx->segments.generation();
    SegmentId seg = ctx->segments.Create(&thr->segment_cursor, thr->slot,
                                         thr->clock, thr->thread_id);
    if (LIKELY(seg)) {
      thr->segment = seg;
      break;
    }
    StartNextSegmentGeneration(thr, generation);
  }
  thr->noops.Invalidate();
  RefreshInlineTest(thr);
  // The thread's first segment of a new generation: its trace says where
  // the generation's events begin, and thread-set and lock-set ids of two
  // generations ago name other sets now, so what it memoised of them goes.
  if (UNLIKELY(thr->segment_cursor.generation != previous_generation)) {
    if (thr->context)
      thr->context->trace.StartGeneration(thr->segment_cursor.generation);
    thr->set_ops.Clear();
    thr->locks.ForgetSets();
    for (ThreadState::JoinRuleEntry &e : thr->join_rule_cache)
      e = ThreadState::JoinRuleEntry();
  }
}

void AcquireClock(ThreadState *thr, const VectorClock &clock) {
  if (UNLIKELY(ndr_enabled))
    NdrSyncEvent(thr);
  // An acquire that brings nothing new leaves every answer that depends on
  // what the thread knows as it was (msm=hb's lock of a lock whose last
  // holder it already knows).
  if (thr->vc.Join(clock))
    thr->Learned();
}

void AcquireClock(ThreadState *thr, const ClockRef &clock) {
  if (UNLIKELY(ndr_enabled))
    NdrSyncEvent(thr);
  if (clock.JoinInto(&thr->vc))
    thr->Learned();
}

bool EndedBefore(ThreadState *thr, u32 thread_id) {
  ThreadEnd end = ctx->threads.EndOf(thread_id);
  return end.ended && thr->vc.Get(end.slot) >= end.clock;
}

void Acquire(ThreadState *thr, SyncObject *s) {
  SpinMutexLock l(&s->mu);
  AcquireClock(thr, s->clock);
}

void Release(ThreadState *thr, SyncObject *s) {
  {
    SpinMutexLock l(&s->mu);
    s->clock.Join(thr->vc);
  }
  NewSegment(thr);
}

void AcquireAddr(ThreadState *thr, uptr addr) {
  if (SyncObject *s = ctx->syncs.Get(addr))
    Acquire(thr, s);
}

void ReleaseAddr(ThreadState *thr, uptr addr) {
  if (SyncObject *s = ctx->syncs.GetOrCreate(addr))
    Release(thr, s);
}

namespace {
// s->mu must be held.
BarrierState *BarrierOf(SyncObject *s) {
  SyncExtras &x = s->Extras();
  if (!x.barrier)
    x.barrier = new (InternalCalloc(sizeof(BarrierState))) BarrierState();
  return x.barrier;
}
} // namespace

void BarrierInit(ThreadState *thr, uptr addr, u32 count) {
  SyncObject *s = ctx->syncs.GetOrCreate(addr);
  if (!s)
    return;
  SpinMutexLock l(&s->mu);
  BarrierState *b = BarrierOf(s);
  b->count = count;
  b->arrived = 0;
  b->round = 0;
  b->round_clock[0].Reset();
  b->round_clock[1].Reset();
}

// One clock for all rounds would let a thread that leaves round r late
// acquire what another thread published on arriving at round r + 1, and so
// hide a race between their accesses of round r + 1. Two clocks suffice: when
// round r is complete every thread has left round r - 1, whose clock round
// r + 1 then reuses.
u32 BarrierArrive(ThreadState *thr, uptr addr) {
  SyncObject *s = ctx->syncs.GetOrCreate(addr);
  if (!s)
    return 0;
  u32 round;
  {
    SpinMutexLock l(&s->mu);
    BarrierState *b = BarrierOf(s);
    round = b->round;
    b->round_clock[round % 2].Join(thr->vc);
    // Without a known count (a barrier initialised before the runtime saw
    // it), every round shares clock 0: conservative, as before rounds.
    if (b->count && ++b->arrived == b->count) {
      b->arrived = 0;
      b->round++;
      b->round_clock[b->round % 2].Reset();
    }
  }
  NewSegment(thr);
  return round;
}

void BarrierLeave(ThreadState *thr, uptr addr, u32 round) {
  if (SyncObject *s = ctx->syncs.Get(addr)) {
    SpinMutexLock l(&s->mu);
    SyncExtras *x = s->extras();
    if (x && x->barrier)
      AcquireClock(thr, x->barrier->round_clock[round % 2]);
  }
}

StackId CurrentStack(ThreadState *thr, uptr pc) {
  StackId callers = CallerStack(thr);
  return pc ? ctx->stacks.Extend(callers, pc) : callers;
}

SyncObject *NameLock(ThreadState *thr, uptr pc, SyncObject *s) {
  // Once per lock: its name and the stack reports show it by.
  StackId first_seen = s->first_seen ? 0 : CurrentStack(thr, pc);
  SpinMutexLock l(&s->mu);
  if (!s->lock_id)
    ctx->syncs.NameLock(s);
  if (!s->first_seen) {
    s->first_seen = first_seen;
    s->first_seen_thread = thr->thread_id;
  }
  return s;
}

void MutexPreLock(ThreadState *thr, uptr pc, uptr addr) {
  // Checked before the lookup: most acquisitions have no edge to add.
  if (!AddsLockOrderEdges(thr))
    return;
  if (SyncObject *s = NamedLock(thr, pc, addr))
    LockOrderBeforeAcquire(thr, pc, s);
}

void MutexLocked(ThreadState *thr, uptr pc, uptr addr, bool write) {
  if (SyncObject *s = NamedLock(thr, pc, addr))
    MutexLocked(thr, pc, s, write);
}

void MutexLocked(ThreadState *thr, uptr pc, SyncObject *s, bool write) {
  bool first;
  LockId id = s->lock_id;
  u32 me = thr->thread_id + 1;
  // The holder fields need no lock: a write hold's owner and recursion
  // change only in the hands of the thread that holds the lock (after it
  // got it here, before it lets go in MutexUnlocking), and read holds are
  // counted atomically. Only a lock that orders takes s->mu, for its
  // clocks; in the hybrid machines a lock/unlock pair then makes no
  // read-modify-write of the runtime's own.
  // A recursive mutex is acquired once, however deep the recursion.
  first = !(write && LoadRelaxed(&s->owner) == me);
  if (write) {
    StoreRelaxed(&s->owner, me);
    StoreRelaxed(&s->recursion, LoadRelaxed(&s->recursion) + 1);
  } else {
    __atomic_fetch_add(&s->readers, 1, __ATOMIC_RELAXED);
  }
  if (first && (LocksOrder() || LoadRelaxed(&s->pure_happens_before))) {
    SpinMutexLock l(&s->mu);
    AcquireClock(thr, s->clock);
    // A writer is ordered after every reader that released before it.
    if (write)
      AcquireClock(thr, s->read_clock());
  }
  if (first) {
    if (TracksAcquisitions())
      LockOrderAcquired(thr, pc, s);
    // Tagged with the generation read before interning: the id is of that
    // generation or a later one, and the tag is only ever compared equal.
    u32 generation = ctx->locksets.generation();
    LockSetId single = s->SingleLockSet(generation);
    if (UNLIKELY(!single)) {
      single = ctx->locksets.Intern(&id, 1);
      s->SetSingleLockSet(single, generation);
    }
    thr->locks.Add(id, write, single);
    thr->noops.Invalidate();
    if (UNLIKELY(ndr_enabled))
      NdrLockAcquired(thr, id, write);
    if (WriteReadRelationsEnabled())
      LockRegionStarted(thr->relations, s->addr);
    UpdateRecording(thr);
  }
}

void MutexUnlocking(ThreadState *thr, uptr addr, bool write, bool for_wait) {
  if (SyncObject *s = ctx->syncs.GetOrCreate(addr))
    MutexUnlocking(thr, s, write, for_wait);
}

void MutexUnlocking(ThreadState *thr, SyncObject *s, bool write,
                    bool for_wait) {
  bool last = true;
  // The holder fields without s->mu, as in MutexLocked.
  if (write) {
    // Unlocking a lock one does not hold fails (error-checking mutexes) or
    // is undefined: it publishes nothing and must not clobber the clock.
    if (LoadRelaxed(&s->owner) != thr->thread_id + 1)
      return;
    u32 recursion = LoadRelaxed(&s->recursion) - 1;
    StoreRelaxed(&s->recursion, recursion);
    last = recursion == 0;
  } else {
    u32 readers = LoadRelaxed(&s->readers);
    while (readers && !__atomic_compare_exchange_n(
                          &s->readers, &readers, readers - 1, true,
                          __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
  }
  if (last && (LocksOrder() || LoadRelaxed(&s->pure_happens_before))) {
    SpinMutexLock l(&s->mu);
    if (write)
      s->clock.CopyFrom(thr->vc);
    else
      s->Extras().read_clock.Join(thr->vc);
  }
  if (!last)
    return;
  LockRegionEnding(thr, s, for_wait);
  // Free only once the section's writes are in the lock's map: a reader
  // that finds the lock free trusts the map to hold them
  // (ReadAfterLockedWrites). Nobody else can take the lock before the
  // program's unlock, which comes after this.
  if (write)
    StoreRelaxed(&s->owner, 0u);
  if (TracksAcquisitions())
    LockOrderReleased(thr, s->lock_id);
  thr->locks.Remove(s->lock_id);
  thr->noops.Invalidate();
  if (UNLIKELY(ndr_enabled))
    NdrLockReleased(thr, s->lock_id);
  UpdateRecording(thr);
  // Every machine starts a new segment here, the hybrid ones too (where it
  // orders nothing for other threads): within one segment a thread then only
  // ever gains locks, so the lock set of its first access to a location is
  // the intersection over all its accesses in the segment, and the fast path
  // (same segment = nothing to do) stays exact.
  NewSegment(thr);
}

void MutexIsPureHappensBefore(uptr addr) {
  SyncObject *s = ctx->syncs.GetOrCreate(addr);
  if (!s)
    return;
  StoreRelaxed(&s->pure_happens_before, true);
}

u32 MutexRecursion(ThreadState *thr, uptr addr) {
  SyncObject *s = ctx->syncs.GetOrCreate(addr);
  if (!s)
    return 0;
  return LoadRelaxed(&s->owner) == thr->thread_id + 1
             ? LoadRelaxed(&s->recursion)
             : 0;
}

void MutexDestroyed(ThreadState *thr, uptr addr) {
  (void)thr;
  ctx->syncs.ResetRange(addr, 1);
}

// The creation stack reaches main through uninstrumented callers
// (std::thread, a library's thread pool) when the machine stack can be
// unwound from pc; otherwise it is the shadow stack.
StackId UnwindCreationStack(ThreadState *parent, uptr pc) {
  uptr frames[StackDepot::kMaxFrames];
  u32 n = UnwindStackFrom(pc, frames, StackDepot::kMaxFrames);
  if (!n)
    return CurrentStack(parent, pc);
  // Below the thread's outermost function are libc's start-up frames or
  // the runtime's trampoline, which CaptureStack leaves out too.
  bool outermost = parent->context && !parent->context->adopted;
  if (outermost && parent->stack_depth && parent->shadow_stack)
    for (u32 i = 1; i < n; i++)
      if (frames[i] == parent->shadow_stack[0].pc)
        n = i;
  return ctx->stacks.Put(frames, n);
}

ThreadContext *ThreadCreate(ThreadState *parent, uptr pc) {
  ThreadContext *tc = ctx->threads.Create(parent->thread_id);
  if (!tc)
    return nullptr;
  tc->creation_stack = UnwindCreationStack(parent, pc);
  tc->sync_clock.CopyFrom(parent->vc);
  NewSegment(parent);
  return tc;
}

void ThreadStart(ThreadState *thr, ThreadContext *tc) {
  thr->context = tc;
  thr->slot = tc->slot;
  thr->thread_id = tc->thread_id;
  {
    SpinMutexLock l(ctx->threads.mutex());
    tc->os_tid = CurrentOsTid();
    tc->pthread = reinterpret_cast<uptr>(pthread_self());
    tc->state = thr;
    tc->status = ThreadStatus::kRunning;
  }
  if (!tc->shadow_stack)
    tc->shadow_stack = static_cast<ShadowFrame *>(MmapNoReserveOrDie(
        kShadowStackSize * sizeof(ShadowFrame), "shadow stack"));
  thr->shadow_stack = tc->shadow_stack;
  thr->stack_depth = 0;
  thr->vc.CopyFrom(tc->sync_clock);
  thr->previous_owner_clock = tc->sync_clock.Get(tc->slot);
  thr->clock = tc->last_clock;
  if (thr->previous_owner_clock < tc->last_clock)
    tc->handoff_records.Forget();
  thr->Learned();
  NdrThreadStart(thr);
  GetThreadStackBounds(&tc->stack_beg, &tc->stack_end);
  // glibc reuses the stacks (and TLS) of finished threads: what the previous
  // owner did there is not this thread's history.
  if (tc->thread_id != 0)
    MemoryRangeReset(tc->stack_beg, tc->stack_end - tc->stack_beg);
  NewSegment(thr);
  // An adopted thread's end is never seen, so it cannot leave the table.
  if (!tc->adopted)
    RegisterLockHolder();
}

void ThreadFinish(ThreadState *thr) {
  ThreadContext *tc = thr->context;
  if (!tc || tc->status != ThreadStatus::kRunning)
    return;
  // Everything the thread did is in its clock; a joiner acquires it.
  tc->sync_clock.CopyFrom(thr->vc);
  tc->last_clock = thr->clock;
  NdrThreadFinish(thr);
  ThreadRelationsFinished(thr);
  CheckThreadExit(thr);
  thr->acquisitions.Free();
  thr->vc.Free();
  thr->fence_acquire.Free();
  thr->fence_release.Free();
  ctx->threads.RecordEnd(thr->thread_id, thr->slot, thr->clock);
  // What runs after this (TLS destructors, pthread_exit's unwinding) is not
  // seen: the slot may already belong to a new thread.
  thr->ignore_reads++;
  thr->ignore_writes++;
  thr->in_rtl++;
  thr->exiting = true;
  // The shadow stack stays with the slot: the next thread there takes it.
  // Function entries from here on only count their depth, and no access is
  // checked (the ignores above), so no stack is taken from it.
  thr->shadow_stack = nullptr;
  ReleaseDeferredSignals(thr);
  {
    SpinMutexLock l(ctx->threads.mutex());
    tc->status = ThreadStatus::kFinished;
    if (tc->detached)
      ctx->threads.Recycle(tc);
  }
  // Its thread-local storage may go away once the thread is joined.
  UnregisterLockHolder();
}

void ThreadJoin(ThreadState *thr, ThreadContext *tc) {
  AcquireClock(thr, tc->sync_clock);
  SpinMutexLock l(ctx->threads.mutex());
  tc->joined = true;
  ctx->threads.Recycle(tc);
}

void ThreadDetach(ThreadState *thr, ThreadContext *tc) {
  (void)thr;
  SpinMutexLock l(ctx->threads.mutex());
  tc->detached = true;
  if (tc->status == ThreadStatus::kFinished)
    ctx->threads.Recycle(tc);
}

void AdoptCurrentThread(ThreadState *thr) {
  if (!IsInitialized() || thr->context || thr->untracked)
    return;
  ScopedInRuntime in_rtl;
  ThreadContext *tc = ctx->threads.Create(0);
  if (!tc)
    return MarkUntracked(thr);
  tc->adopted = true;
  ThreadStart(thr, tc);
}

void MarkUntracked(ThreadState *thr) {
  thr->untracked = true;
  thr->ignore_reads++;
  thr->ignore_writes++;
}

namespace {
// An access made by the runtime on behalf of the function at fn_pc, called
// by the program at caller_pc: reported with that function's frame on top.
template <typename Fn>
void AccessInFunction(uptr fn_pc, uptr caller_pc, Fn fn) {
  __hrace_func_entry(reinterpret_cast<void *>(caller_pc));
  fn(fn_pc | kRuntimeFramePc);
  __hrace_func_exit();
}
} // namespace

void HeapBlockAllocated(uptr addr, uptr size, uptr rewritten, bool prefaulted) {
  RecordHeapBlock(addr, size);
  // The allocator orders a free before the allocation that reuses the
  // memory, where no one sees it: a free's write must not race with the new
  // owner.
  if (IsAppMem(addr)) {
    ResetShadowRange(addr + rewritten, size - rewritten, !prefaulted);
    if (UNLIKELY(ndr_enabled))
      NdrResetRange(cur_thread(), addr, size);
  }
}

void HeapBlockFreed(uptr addr, uptr size) {
  if (!IsAppMem(addr))
    return;
  ForgetHeapBlock(addr, size);
  MemoryRangeReset(addr, size);
}

void HeapBlockFreedBy(ThreadState *thr, uptr free_pc, uptr caller_pc, uptr addr,
                      uptr size) {
  if (!IsAppMem(addr))
    return;
  CheckFreeOfLocks(thr, caller_pc, addr, size);
  // In the hybrid machines the uses of a sync object are ordered by the
  // object itself, not by lock sets: the free forgets them, as a destroy
  // does (SyncObjectWritten).
  if (!LocksOrder())
    ctx->syncs.ForEachInRange(
        addr, size, [](SyncObject *s) { ResetShadowRange(s->addr, 1); });
  // Locks and other sync objects in the block are gone; so are benign-race
  // marks, which would otherwise hide the free's write.
  ctx->syncs.ResetRange(addr, size);
  ForgetBenignRaces(addr, size);
  uptr checked = size < kFreeCheckedBytes ? size : kFreeCheckedBytes;
  // The free's own frame above its caller's, as if the program had called
  // an instrumented free. The block is still known: a hand-off edge scoped
  // to it orders the free as it orders the thread's other accesses.
  AccessInFunction(free_pc, caller_pc, [&](uptr pc) {
    if (checked <= kFreeWritesNewBytes)
      return MemoryAccess(thr, pc, addr, checked, true);
    // Only the bytes the program touched: a New cell races with nothing,
    // and writing it would turn a shared zero page of shadow into a private
    // one for every byte of a large, partly used buffer.
    ForEachTouchedRun(addr, checked, [&](uptr beg, uptr n) {
      MemoryAccess(thr, pc, beg, n, true);
    });
  });
  ForgetHeapBlock(addr, size);
  if (size > checked)
    ResetShadowRange(addr + checked, size - checked);
}

void MemoryAllocatedBy(ThreadState *thr, uptr alloc_pc, uptr caller_pc,
                       uptr addr, uptr size, bool heap) {
  uptr written = size < kAllocWrittenBytes ? size : kAllocWrittenBytes;
  // A block of a few pages is brought in written before its cells are
  // first read (the reset reads them), and kept: its shadow is about to be
  // used. A larger one may be a sparse array, whose untouched shadow would
  // then take memory.
  bool prefault = heap && size >= kPrefaultedBlockMin &&
                  size <= kPrefaultedBlockMax && IsAppMem(addr) &&
                  PrefaultShadowRange(addr, size);
  // The cells MarkAllocated stores are not reset first: the reset reads
  // before it stores, and on a shadow page never touched the read maps the
  // zero page, which the store then copies, flushing the TLB of every core
  // the process runs on (a tenth of freqmine's time, which allocates its
  // tree node by node).
  if (heap)
    HeapBlockAllocated(addr, size, MarksAllocations(thr) ? written : 0,
                       prefault);
  else
    MemoryRangeReset(addr, size);
  if (!IsAppMem(addr))
    return;
  AccessInFunction(alloc_pc, caller_pc,
                   [&](uptr pc) { MarkAllocated(thr, pc, addr, written); });
}

void SyncObjectUsedChanged(ThreadState *thr, uptr fn, uptr caller_pc,
                           uptr addr) {
  // Reports symbolize pc - 1: fn + 1 names the function.
  AccessInFunction(fn + 1, caller_pc, [&](uptr pc) {
    AtomicMemoryAccess(thr, pc, addr, 1, false);
  });
}

void SyncObjectWritten(ThreadState *thr, uptr fn, uptr caller_pc, uptr addr) {
  if (!IsAppMem(addr))
    return;
  if (!LocksOrder())
    ResetShadowRange(addr, 1);
  AccessInFunction(fn + 1, caller_pc,
                   [&](uptr pc) { MemoryAccess(thr, pc, addr, 1, true); });
}

void MemoryRangeReset(uptr addr, uptr size) {
  if (!size || !IsAppMem(addr))
    return;
  ResetShadowRange(addr, size);
  ctx->syncs.ResetRange(addr, size);
  ForgetBenignRaces(addr, size);
  if (UNLIKELY(ndr_enabled))
    NdrResetRange(cur_thread(), addr, size);
}

StackId CallerStackSlow(ThreadState *thr, u32 depth) {
  // history_depth=0: accesses are recorded with their own frame only; so is
  // a thread without a shadow stack yet, or one deeper than it.
  if (!ctx->flags.history_depth || !thr->shadow_stack ||
      depth > kShadowStackSize)
    return 0;
  ShadowFrame *stack = thr->shadow_stack;
  u32 i = depth;
  while (i && !stack[i - 1].stack_plus_one)
    i--;
  StackId id = i ? stack[i - 1].stack_plus_one - 1 : 0;
  // The outermost entry is the runtime's trampoline or libc's main caller
  // (see CaptureStack): the stack starts above it.
  u32 outermost = thr->context && !thr->context->adopted ? 1 : 0;
  for (; i < depth; i++) {
    if (i >= outermost)
      id = ctx->stacks.Extend(id, stack[i].pc);
    stack[i].stack_plus_one = id + 1;
  }
  return id;
}

u32 CaptureStack(ThreadState *thr, uptr pc, uptr *frames, u32 max_frames) {
  u32 n = 0;
  if (pc && n < max_frames)
    frames[n++] = pc;
  u32 depth = !thr->shadow_stack                    ? 0
              : thr->stack_depth < kShadowStackSize ? thr->stack_depth
                                                    : kShadowStackSize;
  // The outermost entry is the return address into whoever started the
  // thread: the runtime's trampoline or libc's main caller. Only a thread the
  // runtime adopted mid-flight may have program code there.
  u32 outermost = thr->context && !thr->context->adopted ? 1 : 0;
  for (u32 i = depth; i-- > outermost && n < max_frames;)
    frames[n++] = thr->shadow_stack[i].pc;
  return n;
}

} // namespace hrace

using namespace hrace;

extern "C" void __hrace_init() { Initialize(); }

// Initialise before any constructor of the program runs, so even accesses
// and locks in constructors are seen. glibc calls preinit functions with
// (argc, argv, envp).
static void PreinitInitialize(int, char **, char **envp) {
  preinit_envp = envp;
  Initialize();
  preinit_envp = nullptr;
}
__attribute__((section(".preinit_array"), used)) static void (*hrace_preinit)(
    int, char **, char **) = PreinitInitialize;
