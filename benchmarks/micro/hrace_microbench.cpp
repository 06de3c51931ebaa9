//===-- hrace_microbench.cpp - Costs of the runtime's hot paths -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Google Benchmark of the entry points the pass calls, made directly on a
// 32 KiB buffer of 8-byte words (this file is not instrumented; it is linked
// with the runtime, so its pthread calls go through the interceptors), and
// of the same loads and stores made by instrumented code
// (hrace_microbench_program.c: on x86-64 the inline no-op test, then the
// call only when it fails). The state machine is the one HRACE_OPTIONS
// selects; run.py runs this once per mode.
//
// Loads and stores come in these situations:
//
//   Exclusive     only this thread has touched the words
//   Shared        another thread touched them first, unordered with this
//                 one (reads), or under the same lock (writes)
//   Locked        this thread holds a lock (shared writes always do): in
//                 precise mode it records every access for the write/read
//                 relations, and instrumented code makes no inline test
//   NoHistory     every access repeats one in the same segment: nothing to
//                 record, the machine's inline no-op check
//   History       each pass over the buffer starts a new segment (an unlock
//                 of a private mutex), so every access is a transition that
//                 the thread's trace records
//
// What a situation becomes is the machine's business: msm=hb keeps no shared
// state, for example, and a lock orders the shared writes there.
//
//===----------------------------------------------------------------------===//

#include "hrace_interface.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <pthread.h>
#include <thread>
#include <tuple>

namespace {

constexpr size_t kWords = 4096;

enum class Access { kRead, kWrite };
enum class Sharing { kExclusive, kShared };
enum class History { kNo, kYes };

pthread_mutex_t SharedLock = PTHREAD_MUTEX_INITIALIZER;

extern "C" uint64_t hrace_bench_read_words(const uint64_t *Words, size_t N);
extern "C" void hrace_bench_write_words(uint64_t *Words, size_t N);
extern "C" void hrace_bench_locked_increments(pthread_mutex_t *M,
                                              uint64_t *Counter, size_t N);

// Direct calls of the entry points, or instrumented code's accesses.
enum class Code { kCalls, kInstrumented };

void pass(uint64_t *Words, Access A, Code C = Code::kCalls) {
  if (C == Code::kInstrumented) {
    if (A == Access::kRead)
      benchmark::DoNotOptimize(hrace_bench_read_words(Words, kWords));
    else
      hrace_bench_write_words(Words, kWords);
    return;
  }
  for (size_t I = 0; I < kWords; ++I) {
    if (A == Access::kRead)
      __hrace_read8(&Words[I]);
    else
      __hrace_write8(&Words[I]);
  }
}

// Ends the current segment: the runtime starts one at every unlock.
void newSegment() {
  static pthread_mutex_t Private = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&Private);
  pthread_mutex_unlock(&Private);
}

// Another thread's pass over the buffer (writes under SharedLock). It
// announces the end of its pass through an atomic the runtime does not see,
// so nothing orders the pass before this thread's accesses, and it is joined
// only when the benchmark is over.
class OtherThread {
public:
  OtherThread(uint64_t *Words, Access A)
      : Thread([this, Words, A] {
          if (A == Access::kWrite)
            pthread_mutex_lock(&SharedLock);
          pass(Words, A);
          if (A == Access::kWrite)
            pthread_mutex_unlock(&SharedLock);
          Passed.store(true, std::memory_order_release);
          while (!Finish.load(std::memory_order_acquire))
            std::this_thread::yield();
        }) {
    while (!Passed.load(std::memory_order_acquire))
      std::this_thread::yield();
  }
  ~OtherThread() {
    Finish.store(true, std::memory_order_release);
    Thread.join();
  }

private:
  std::atomic<bool> Passed{false}, Finish{false};
  std::thread Thread;
};

void memoryAccess(benchmark::State &State, Access A, Sharing S, bool Locked,
                  History H, Code C) {
  auto *Words = static_cast<uint64_t *>(calloc(kWords, sizeof(uint64_t)));
  std::unique_ptr<OtherThread> Other;
  if (S == Sharing::kShared)
    Other = std::make_unique<OtherThread>(Words, A);
  if (Locked)
    pthread_mutex_lock(&SharedLock);
  // The first pass moves the words to their steady state.
  pass(Words, A, C);
  for (auto _ : State) {
    if (H == History::kYes)
      newSegment();
    pass(Words, A, C);
  }
  if (Locked)
    pthread_mutex_unlock(&SharedLock);
  State.counters["time_per_access"] = benchmark::Counter(
      double(State.iterations()) * kWords,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  Other.reset();
  free(Words);
}

// Reads unlocked, exclusive or shared; writes exclusive, unlocked or
// locked, and shared (locked); each with and without history.
void situations(benchmark::internal::Benchmark *B) {
  B->ArgNames({"write", "shared", "locked", "history"});
  for (int64_t History : {0, 1})
    for (auto [Write, Shared, Locked] :
         {std::tuple{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 0, 1}, {1, 1, 1}})
      B->Args({Write, Shared, Locked, History});
}

void access(benchmark::State &State, Code C) {
  memoryAccess(State, Access(State.range(0)), Sharing(State.range(1)),
               State.range(2) != 0, History(State.range(3)), C);
}

void BM_Access(benchmark::State &State) { access(State, Code::kCalls); }
BENCHMARK(BM_Access)->Apply(situations);

// The same accesses made by instrumented code: what a program pays.
void BM_InstrumentedAccess(benchmark::State &State) {
  access(State, Code::kInstrumented);
}
BENCHMARK(BM_InstrumentedAccess)->Apply(situations);

void BM_FuncEntryExit(benchmark::State &State) {
  for (auto _ : State) {
    __hrace_func_entry(__builtin_return_address(0));
    __hrace_func_exit();
  }
}
BENCHMARK(BM_FuncEntryExit);

void BM_LockUnlock(benchmark::State &State) {
  pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
  for (auto _ : State) {
    pthread_mutex_lock(&M);
    pthread_mutex_unlock(&M);
  }
  pthread_mutex_destroy(&M);
}
BENCHMARK(BM_LockUnlock);

// Per lock/unlock pair around an instrumented counter's increment: the
// section's read and write, and the publication of the write at its end.
void BM_LockedIncrement(benchmark::State &State) {
  pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
  uint64_t Counter = 0;
  constexpr size_t kPairs = 1024;
  for (auto _ : State)
    hrace_bench_locked_increments(&M, &Counter, kPairs);
  benchmark::DoNotOptimize(Counter);
  State.counters["time_per_access"] = benchmark::Counter(
      double(State.iterations()) * kPairs,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  pthread_mutex_destroy(&M);
}
BENCHMARK(BM_LockedIncrement);

// One round trip: this thread signals, the other wakes, signals back.
void BM_SignalWait(benchmark::State &State) {
  pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t Cv = PTHREAD_COND_INITIALIZER;
  long Turn = 0; // Odd: the other thread's move; even: ours.
  bool Stop = false;
  std::thread Other([&] {
    pthread_mutex_lock(&M);
    for (;;) {
      while (Turn % 2 == 0 && !Stop)
        pthread_cond_wait(&Cv, &M);
      if (Stop)
        break;
      Turn++;
      pthread_cond_signal(&Cv);
    }
    pthread_mutex_unlock(&M);
  });
  pthread_mutex_lock(&M);
  for (auto _ : State) {
    Turn++;
    pthread_cond_signal(&Cv);
    while (Turn % 2 == 1)
      pthread_cond_wait(&Cv, &M);
  }
  Stop = true;
  pthread_cond_signal(&Cv);
  pthread_mutex_unlock(&M);
  Other.join();
  pthread_cond_destroy(&Cv);
  pthread_mutex_destroy(&M);
}
BENCHMARK(BM_SignalWait)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
