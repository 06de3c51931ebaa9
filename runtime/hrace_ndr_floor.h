//===-- hrace_ndr_floor.h - What every epoch still to run knows -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ndr=1 keeps the reads of ended epochs so that a later parallel write finds
// them. A read whose epoch happens before every epoch that any thread will
// still run can meet no such write: its epoch variable can go. This file
// keeps the live threads and what each one's epochs to come know at least
// (its clock when its latest epoch began), and gathers them into an
// NdrFloor (detectors/hrace_ndr.h): for sweeps of all histories, and, a
// few times a millisecond at most, for the threads' own slots (a thread
// drops its own dead reads when it touches their variables again).
//
// A thread blocked in pthread_join runs its next epoch after the thread it
// joins has ended, knowing all that thread knew: while that thread lives,
// the joiner adds nothing to the floor (a program's main thread waits in
// joins while its workers run). A thread being created starts with what
// its creator knew then, which the creator's newer clock may exceed: no
// floor is gathered while one is on its way.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_NDR_FLOOR_H
#define HRACE_NDR_FLOOR_H

#include "../detectors/hrace_ndr.h"
#include "hrace_mutex.h"
#include "hrace_vector_clock.h"

namespace hrace {

struct ThreadState;

// One live thread's part of the floor (NdrThread::floor).
struct NdrFloorThread {
  NdrFloorThread *prev;
  NdrFloorThread *next;
  u32 thread_id;
  u32 slot;
  Clock previous_owner_clock;
  // The thread it waits for in pthread_join, or NdrFloor::kNoThread.
  u32 joining;
  // Between NdrFloorRegister and NdrFloorUnregister.
  bool registered;
  // The thread's own clock when its latest epoch began: a thread it
  // creates from then on knows it.
  Clock own_clock;
  // ThreadState::acquires when `clock` was copied: the clock changes only
  // when the thread learns something.
  u32 published_acquires;
  // What the thread's epochs from its latest on know at least.
  SpinMutex mu;
  VectorClock clock;
};

void NdrFloorInit();
// The thread starts taking part, with what it knows now.
void NdrFloorRegister(NdrFloorThread *t, ThreadState *thr);
// The thread runs no more epochs.
void NdrFloorUnregister(NdrFloorThread *t);
// pthread_create is on its way / has started the thread or failed.
void NdrFloorThreadCreating();
void NdrFloorThreadCreated();
// The thread blocks in a join of `thread_id` (it has no running epoch and
// no check waiting), and returns from it.
void NdrFloorJoinBegin(NdrFloorThread *t, u32 thread_id);
void NdrFloorJoinEnd(NdrFloorThread *t);
// Gathers the floor of the threads now into *floor, which stays valid
// (a bound of every epoch still to run, now and later) until NdrFloorDone.
// False, with nothing to undo, while another gather runs or a thread is
// being created. Holds a runtime lock until NdrFloorDone.
bool NdrFloorGather(NdrFloor *floor);
void NdrFloorDone();
// What every live thread but the slot's own knew of the slot at the last
// gather: an epoch of the slot's thread with a clock up to it happens
// before every epoch still to run.
Clock NdrFloorKnownOf(u32 slot);
// In a forked child: the other threads are gone.
void NdrFloorForkChild(NdrFloorThread *self);

// NdrFloorPublish's copy, out of line.
void NdrFloorCopy(NdrFloorThread *t, ThreadState *thr, u32 acquires);

// An epoch begins with thr's vector clock and own `clock` (`acquires`:
// thr's count of what it learned): the thread's part grows to it if the thread
// learned anything since the last time, and the floor is gathered again if the
// last gather is old. The thread has no ended epoch waiting for its checks
// (their epochs know less than the part would say).
ALWAYS_INLINE void NdrFloorPublish(NdrFloorThread *t, ThreadState *thr,
                                   Clock clock, u32 acquires) {
  StoreRelaxed(&t->own_clock, clock);
  if (UNLIKELY(t->published_acquires != acquires))
    NdrFloorCopy(t, thr, acquires);
}

} // namespace hrace

#endif // HRACE_NDR_FLOOR_H
