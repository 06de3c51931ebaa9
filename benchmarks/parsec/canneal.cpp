//===-- canneal.cpp - Simulated annealing with lock-free swaps ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's canneal: simulated annealing of a chip's netlist to shorten its
// wires. All threads pick random pairs of elements from the whole netlist,
// price the swap of their locations by the Manhattan length of the wires,
// and perform accepted swaps without locks: an element is claimed with a
// compare-and-swap, locations are std::atomic and read relaxed while other
// threads move them. A barrier separates temperature steps.
//
// Concurrent swaps make the final placement depend on the schedule, so the
// checksum is over what must survive any schedule: the placement is still a
// permutation of the locations (a lost or duplicated swap would break it).
// The wire length it reached is printed for information.
//
// -r: accepted swaps are counted in one plain shared counter. An increment
// follows the unclaims of its swap, so a thread's last increment of a step
// comes after its last release of the step, and the two threads' last
// increments before the barrier are always unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

#include <atomic>
#include <memory>
#include <vector>

namespace {

constexpr int kFanout = 5; // Wires from each element.

struct Netlist {
  int Elements;
  int Width; // Locations form a Width x Width grid, one element each.
  std::vector<int> Wires; // kFanout neighbours per element.
  // Location of each element, y * Width + x.
  std::unique_ptr<std::atomic<int>[]> Location;
  // 1 while a thread swaps the element.
  std::unique_ptr<std::atomic<unsigned char>[]> Claimed;
};

struct Annealer {
  Netlist *Net;
  int Steps;
  int MovesPerStep; // Per thread.
  int Race;
  pthread_barrier_t StepBarrier;
  long SharedAccepted; // -r only.
  std::vector<long> Accepted; // One per thread.
};

int distance(int A, int B, int Width) {
  return abs(A % Width - B % Width) + abs(A / Width - B / Width);
}

// Wire length around Elem if it sat at Loc, with Other (the swap partner)
// assumed at OtherLoc.
int wireCost(const Netlist &N, int Elem, int Loc, int Other, int OtherLoc) {
  int Cost = 0;
  for (int K = 0; K < kFanout; ++K) {
    int Peer = N.Wires[Elem * kFanout + K];
    int PeerLoc = Peer == Other
                      ? OtherLoc
                      : N.Location[Peer].load(std::memory_order_relaxed);
    Cost += distance(Loc, PeerLoc, N.Width);
  }
  return Cost;
}

bool claim(Netlist &N, int Elem) {
  unsigned char Free = 0;
  return N.Claimed[Elem].compare_exchange_strong(
      Free, 1, std::memory_order_acquire, std::memory_order_relaxed);
}

void unclaim(Netlist &N, int Elem) {
  N.Claimed[Elem].store(0, std::memory_order_release);
}

// Claims both elements (in index order, so two threads never wait on each
// other), swaps their locations and releases them. False when either was busy.
bool swapLocations(Netlist &N, int A, int B) {
  int First = A < B ? A : B, Second = A < B ? B : A;
  if (!claim(N, First))
    return false;
  if (!claim(N, Second)) {
    unclaim(N, First);
    return false;
  }
  int LocA = N.Location[A].load(std::memory_order_relaxed);
  int LocB = N.Location[B].load(std::memory_order_relaxed);
  N.Location[A].store(LocB, std::memory_order_relaxed);
  N.Location[B].store(LocA, std::memory_order_relaxed);
  unclaim(N, Second);
  unclaim(N, First);
  return true;
}

void worker(void *Arg, int Index) {
  Annealer *Ann = static_cast<Annealer *>(Arg);
  Netlist &N = *Ann->Net;
  double Temperature = 0.25 * N.Width;
  for (int Step = 0; Step < Ann->Steps; ++Step) {
    BenchRng Rng = benchRngMake(((uint64_t)Index << 32) | (uint64_t)Step);
    long Accepted = 0;
    for (int Move = 0; Move < Ann->MovesPerStep; ++Move) {
      int A = (int)benchRngBelow(&Rng, N.Elements);
      int B = (int)benchRngBelow(&Rng, N.Elements);
      if (A == B)
        continue;
      int LocA = N.Location[A].load(std::memory_order_relaxed);
      int LocB = N.Location[B].load(std::memory_order_relaxed);
      int Delta = wireCost(N, A, LocB, B, LocA) + wireCost(N, B, LocA, A, LocB) -
                  wireCost(N, A, LocA, B, LocB) - wireCost(N, B, LocB, A, LocA);
      bool Take = Delta < 0 || benchRngDouble(&Rng) < exp(-Delta / Temperature);
      if (Take && swapLocations(N, A, B)) {
        if (Ann->Race)
          Ann->SharedAccepted++;
        else
          Accepted++;
      }
    }
    Ann->Accepted[Index] += Accepted;
    Temperature *= 0.9;
    pthread_barrier_wait(&Ann->StepBarrier);
  }
}

long totalWireLength(const Netlist &N) {
  long Total = 0;
  for (int E = 0; E < N.Elements; ++E)
    for (int K = 0; K < kFanout; ++K)
      Total += distance(N.Location[E].load(std::memory_order_relaxed),
                        N.Location[N.Wires[E * kFanout + K]].load(
                            std::memory_order_relaxed),
                        N.Width);
  return Total;
}

} // namespace

int main(int Argc, char **Argv) {
  BenchArgs A = benchParseArgs(Argc, Argv);
  int Width = (int)benchPick(&A, 64, 400, 1000);
  int Steps = (int)benchPick(&A, 4, 32, 64);
  int Moves = (int)benchPick(&A, 4000, 180000, 500000);

  // Wires mostly connect elements that are close in index order, and the
  // initial placement is shuffled, so annealing has work to do.
  Netlist N;
  N.Width = Width;
  N.Elements = Width * Width;
  N.Wires.resize((size_t)N.Elements * kFanout);
  N.Location.reset(new std::atomic<int>[N.Elements]);
  N.Claimed.reset(new std::atomic<unsigned char>[N.Elements]);
  BenchRng Rng = benchRngMake(4);
  std::vector<int> Shuffle(N.Elements);
  for (int E = 0; E < N.Elements; ++E) {
    Shuffle[E] = E;
    for (int K = 0; K < kFanout; ++K) {
      int Span = K < 3 ? 16 : N.Elements;
      N.Wires[E * kFanout + K] =
          (E + 1 + (int)benchRngBelow(&Rng, Span)) % N.Elements;
    }
  }
  for (int E = N.Elements - 1; E > 0; --E) {
    int J = (int)benchRngBelow(&Rng, E + 1);
    int T = Shuffle[E];
    Shuffle[E] = Shuffle[J];
    Shuffle[J] = T;
  }
  for (int E = 0; E < N.Elements; ++E) {
    N.Location[E].store(Shuffle[E], std::memory_order_relaxed);
    N.Claimed[E].store(0, std::memory_order_relaxed);
  }
  long Initial = totalWireLength(N);

  Annealer Ann{&N, Steps, Moves, A.Race, {}, 0,
               std::vector<long>(A.Threads, 0)};
  pthread_barrier_init(&Ann.StepBarrier, nullptr, A.Threads);
  double Start = benchNow();
  benchParallel(A.Threads, worker, &Ann);
  pthread_barrier_destroy(&Ann.StepBarrier);

  // Each location must be held by exactly one element.
  std::vector<int> Holders(N.Elements, 0);
  for (int E = 0; E < N.Elements; ++E)
    Holders[N.Location[E].load(std::memory_order_relaxed)]++;
  uint64_t H = BENCH_CHECKSUM_INIT;
  for (int L = 0; L < N.Elements; ++L)
    H = benchHashU64(H, (uint64_t)Holders[L]);
  benchReport("canneal", H, Start);
  long Accepted = Ann.SharedAccepted;
  for (long Count : Ann.Accepted)
    Accepted += Count;
  printf("canneal: wire length %ld -> %ld, %ld swaps accepted\n", Initial,
         totalWireLength(N), Accepted);
  return 0;
}
