//===-- streamcluster.c - Barrier-heavy local search for facility location ===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's streamcluster: online k-median clustering, whose time goes into
// pgain(), the gain of opening a candidate facility. Every candidate costs
// three barriers:
//
//   1. all threads: distance of their points to the candidate; per block,
//      the saving of points that would switch and, per open center, the
//      extra cost of points that would stay if their center closed
//   -- barrier --
//   2. thread 0: sums the blocks in order, decides to open the candidate
//      and which centers close, draws the next candidate
//   -- barrier --
//   3. all threads: reassign their points; per block, the new cost
//   -- barrier --
//      thread 0: the total cost of the solution
//
// Points are split in fixed blocks, dealt to threads round robin, so the
// sums (and the checksum) do not depend on the thread count.
//
// -r: in step 1 the threads add their saving straight into one shared
// total instead of their blocks' slots. Step 1 has no synchronisation, so
// the two threads' additions are unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

enum {
  kDim = 32,
  kBlocks = 64,
  kMaxCenters = 64,
};

struct Clustering {
  int Points;
  const float *Coords;    // Points x kDim.
  int *Assign;            // The center (a point index) of each point.
  float *Cost;            // Its distance to that center.
  float *Dist;            // Its distance to the current candidate.
  double *SwitchGain;     // Per block.
  double *StayCost;       // Per block, kMaxCenters slots.
  double *BlockCost;      // Per block.
  int Centers[kMaxCenters];
  int NumCenters;
  int *Slot;              // Center slot of a center point, else -1.
  unsigned char *Closing; // Per point: a center closing now.
  int Candidate;          // Of step 1.
  int Opened;             // The candidate opened in step 3, or -1.
  double FacilityCost;
  double TotalCost;
  int Iterations;
  int Threads;
  int Race;
  double SharedSwitchGain; // -r only.
  pthread_barrier_t Barrier;
  struct BenchRng Rng; // Thread 0's, for candidates.
};

static float distance(const float *A, const float *B) {
  float Sum = 0.0f;
  for (int D = 0; D < kDim; ++D) {
    float Diff = A[D] - B[D];
    Sum += Diff * Diff;
  }
  return Sum;
}

static int blockBegin(const struct Clustering *C, int Block) {
  return (int)((long)C->Points * Block / kBlocks);
}

static void computeGains(struct Clustering *C, int Block) {
  const float *X = &C->Coords[(size_t)C->Candidate * kDim];
  double Switch = 0.0;
  double *Stay = &C->StayCost[Block * kMaxCenters];
  for (int S = 0; S < C->NumCenters; ++S)
    Stay[S] = 0.0;
  for (int I = blockBegin(C, Block); I < blockBegin(C, Block + 1); ++I) {
    float D = distance(&C->Coords[(size_t)I * kDim], X);
    C->Dist[I] = D;
    if (D < C->Cost[I])
      Switch += C->Cost[I] - D;
    else
      Stay[C->Slot[C->Assign[I]]] += D - C->Cost[I];
  }
  if (C->Race)
    C->SharedSwitchGain += Switch;
  else
    C->SwitchGain[Block] = Switch;
}

// Thread 0 between the first two barriers.
static void decide(struct Clustering *C) {
  double Gain = C->SharedSwitchGain - C->FacilityCost;
  for (int B = 0; B < kBlocks; ++B)
    Gain += C->SwitchGain[B];
  C->SharedSwitchGain = 0.0;
  int Closes = 0;
  for (int S = 0; S < C->NumCenters; ++S) {
    double Stay = 0.0;
    for (int B = 0; B < kBlocks; ++B)
      Stay += C->StayCost[B * kMaxCenters + S];
    C->Closing[C->Centers[S]] = 0;
    // Closing saves the facility but moves its points to the candidate.
    if (C->NumCenters > 1 && C->FacilityCost > Stay) {
      Gain += C->FacilityCost - Stay;
      C->Closing[C->Centers[S]] = 1;
      Closes++;
    }
  }
  int Open = Gain > 0.0 && C->Slot[C->Candidate] < 0 &&
             C->NumCenters - Closes < kMaxCenters;
  C->Opened = Open ? C->Candidate : -1;
  C->Candidate = (int)benchRngBelow(&C->Rng, (uint32_t)C->Points);
  if (Open) {
    // A point closed earlier may come back as a center.
    C->Closing[C->Opened] = 0;
    int Kept = 0;
    for (int S = 0; S < C->NumCenters; ++S) {
      int Center = C->Centers[S];
      C->Slot[Center] = -1;
      if (!C->Closing[Center])
        C->Centers[Kept++] = Center;
    }
    C->Centers[Kept++] = C->Opened;
    C->NumCenters = Kept;
    for (int S = 0; S < Kept; ++S)
      C->Slot[C->Centers[S]] = S;
  } else {
    for (int S = 0; S < C->NumCenters; ++S)
      C->Closing[C->Centers[S]] = 0;
  }
}

static void reassign(struct Clustering *C, int Block) {
  double Sum = 0.0;
  for (int I = blockBegin(C, Block); I < blockBegin(C, Block + 1); ++I) {
    if (C->Opened >= 0 &&
        (C->Dist[I] < C->Cost[I] || C->Closing[C->Assign[I]])) {
      C->Assign[I] = C->Opened;
      C->Cost[I] = C->Dist[I];
    }
    Sum += C->Cost[I];
  }
  C->BlockCost[Block] = Sum;
}

static void worker(void *Arg, int Index) {
  struct Clustering *C = (struct Clustering *)Arg;
  for (int It = 0; It < C->Iterations; ++It) {
    for (int B = Index; B < kBlocks; B += C->Threads)
      computeGains(C, B);
    pthread_barrier_wait(&C->Barrier);
    if (Index == 0)
      decide(C);
    pthread_barrier_wait(&C->Barrier);
    for (int B = Index; B < kBlocks; B += C->Threads)
      reassign(C, B);
    pthread_barrier_wait(&C->Barrier);
    if (Index == 0) {
      C->TotalCost = C->FacilityCost * C->NumCenters;
      for (int B = 0; B < kBlocks; ++B)
        C->TotalCost += C->BlockCost[B];
    }
  }
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  int Points = (int)benchPick(&A, 2048, 32768, 65536);
  int Iterations = (int)benchPick(&A, 40, 5000, 15000);

  // Points around 20 hidden centers.
  struct BenchRng Rng = benchRngMake(5);
  float Hidden[20][kDim];
  for (int K = 0; K < 20; ++K)
    for (int D = 0; D < kDim; ++D)
      Hidden[K][D] = (float)benchRngDouble(&Rng) * 10.0f;
  float *Coords = (float *)benchAlloc(sizeof(float) * Points * kDim);
  for (int I = 0; I < Points; ++I) {
    int K = (int)benchRngBelow(&Rng, 20);
    for (int D = 0; D < kDim; ++D)
      Coords[I * kDim + D] =
          Hidden[K][D] + (float)(benchRngDouble(&Rng) - 0.5) * 2.0f;
  }

  struct Clustering *C = (struct Clustering *)benchAlloc(sizeof(*C));
  C->Points = Points;
  C->Coords = Coords;
  C->Assign = (int *)benchAlloc(sizeof(int) * Points);
  C->Cost = (float *)benchAlloc(sizeof(float) * Points);
  C->Dist = (float *)benchAlloc(sizeof(float) * Points);
  C->SwitchGain = (double *)benchAlloc(sizeof(double) * kBlocks);
  C->StayCost = (double *)benchAlloc(sizeof(double) * kBlocks * kMaxCenters);
  C->BlockCost = (double *)benchAlloc(sizeof(double) * kBlocks);
  C->Slot = (int *)benchAlloc(sizeof(int) * Points);
  C->Closing = (unsigned char *)benchAlloc(Points);
  C->FacilityCost = 2000.0;
  C->Iterations = Iterations;
  C->Threads = A.Threads;
  C->Race = A.Race;
  C->Rng = benchRngMake(6);
  // Start with point 0 as the only center.
  for (int I = 0; I < Points; ++I) {
    C->Slot[I] = -1;
    C->Assign[I] = 0;
    C->Cost[I] = distance(&Coords[I * kDim], Coords);
  }
  C->Centers[0] = 0;
  C->NumCenters = 1;
  C->Slot[0] = 0;
  C->Candidate = (int)benchRngBelow(&C->Rng, (uint32_t)Points);
  pthread_barrier_init(&C->Barrier, NULL, A.Threads);

  double Start = benchNow();
  benchParallel(A.Threads, worker, C);

  uint64_t H = benchHashDouble(BENCH_CHECKSUM_INIT, C->TotalCost);
  H = benchHashU64(H, (uint64_t)C->NumCenters);
  for (int I = 0; I < Points; ++I)
    H = benchHashU64(H, (uint64_t)C->Assign[I]);
  benchReport("streamcluster", H, Start);
  printf("streamcluster: %d centers, cost %.1f\n", C->NumCenters,
         C->TotalCost);
  pthread_barrier_destroy(&C->Barrier);
  free(C->Closing);
  free(C->Slot);
  free(C->BlockCost);
  free(C->StayCost);
  free(C->SwitchGain);
  free(C->Dist);
  free(C->Cost);
  free(C->Assign);
  free(C);
  free(Coords);
  return 0;
}
