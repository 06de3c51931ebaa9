//===-- fluidanimate.c - SPH fluid with a lock per grid cell --------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's fluidanimate: smoothed-particle hydrodynamics on a grid of cells
// of the smoothing length. The grid is cut into slabs along x, one per
// thread. Every frame has five phases separated by barriers:
//
//   1. clear the density and force accumulators of the own cells
//   2. densities: every pair of close particles adds to both particles
//   3. forces: the same pairs, from the densities
//   4. advance the own particles, find their next cell
//   5. rebuild the own cells from the 27 cells around them
//
// In phases 2 and 3 a pair may belong to two slabs, so each addition to a
// particle of a cell on a slab border takes that cell's mutex: one lock and
// unlock per addition, as in PARSEC (table 2 of the Helgrind+ paper: 923,750
// locks on simsmall). The accumulators are fixed-point integers, so the
// sums, and the checksum, do not depend on the order of the additions.
//
// -r: the density additions forget the lock. Phase 2 then has no
// synchronisation at all, and the two threads add to the particles of the
// first layer of each slab after the first: its owner at the start of the
// phase, the thread below at the end of it.
//
// (A race inside a short phase can go unseen by a detector that models a
// barrier as one release-acquire object, as ThreadSanitizer does: a thread
// that leaves the barrier late acquires the other's arrival at the next
// barrier too. HybridRace keeps one clock per round, so it does not.)
//
//===----------------------------------------------------------------------===//

#include "common.h"

enum { kCapacity = 64 }; // Particles per cell.

#define kDensityScale 4294967296.0 // 2^32
#define kForceScale 1048576.0      // 2^20
#define kDt 0.004
#define kGravity 2.0
#define kStiffness 100.0
#define kRestDensity 1.5
#define kViscosity 0.4

struct Particle {
  double P[3], V[3];
  int64_t Density;  // Fixed point, kDensityScale.
  int64_t Force[3]; // Fixed point, kForceScale.
  int NextCell;
};

struct Cell {
  int Count;
  struct Particle Part[kCapacity];
};

struct Fluid {
  int N[3]; // Cells along x, y, z; the box is N[0] x N[1] x N[2].
  struct Cell *Grid[2]; // Frame parity selects the current grid.
  pthread_mutex_t *CellLock;
  unsigned char *Border; // Cells next to another slab.
  int *SlabBegin;         // x layer where each thread's slab starts.
  int Frames, Threads, Race;
  pthread_barrier_t Barrier;
};

static int cellIndex(const struct Fluid *F, int X, int Y, int Z) {
  return (X * F->N[1] + Y) * F->N[2] + Z;
}

static void addDensity(struct Fluid *F, int C, struct Particle *P,
                       int64_t D) {
  if (F->Border[C] && !F->Race) {
    pthread_mutex_lock(&F->CellLock[C]);
    P->Density += D;
    pthread_mutex_unlock(&F->CellLock[C]);
  } else {
    P->Density += D;
  }
}

static void addForce(struct Fluid *F, int C, struct Particle *P,
                     const int64_t D[3]) {
  if (F->Border[C]) {
    pthread_mutex_lock(&F->CellLock[C]);
    for (int K = 0; K < 3; ++K)
      P->Force[K] += D[K];
    pthread_mutex_unlock(&F->CellLock[C]);
  } else {
    for (int K = 0; K < 3; ++K)
      P->Force[K] += D[K];
  }
}

static double pressure(const struct Particle *P) {
  double Excess = (double)P->Density / kDensityScale - kRestDensity;
  return Excess > 0.0 ? kStiffness * Excess : 0.0;
}

// Densities (phase 2) or forces (phase 3) of the pair I in cell CI, J in CJ.
static void interact(struct Fluid *F, int Phase, int CI, struct Particle *I,
                     int CJ, struct Particle *J) {
  double D[3], R2 = 0.0;
  for (int K = 0; K < 3; ++K) {
    D[K] = I->P[K] - J->P[K];
    R2 += D[K] * D[K];
  }
  if (R2 >= 1.0 || R2 == 0.0)
    return;
  if (Phase == 2) {
    double W = (1.0 - R2) * (1.0 - R2) * (1.0 - R2);
    int64_t Q = llround(W * kDensityScale);
    addDensity(F, CI, I, Q);
    addDensity(F, CJ, J, Q);
    return;
  }
  double R = sqrt(R2);
  double Pressure = 0.5 * (pressure(I) + pressure(J)) * (1.0 - R) *
                    (1.0 - R) / R;
  int64_t Fi[3], Fj[3];
  for (int K = 0; K < 3; ++K) {
    double Visc = kViscosity * (J->V[K] - I->V[K]) * (1.0 - R);
    Fi[K] = llround((Pressure * D[K] + Visc) * kForceScale);
    Fj[K] = -Fi[K];
  }
  addForce(F, CI, I, Fi);
  addForce(F, CJ, J, Fj);
}

// Every pair of close particles once: the cell with itself, and the cell
// with the 13 neighbours that come after it (dx, dy, dz lexicographically
// positive).
static void pairs(struct Fluid *F, struct Cell *Grid, int Phase, int X0,
                  int X1) {
  for (int X = X0; X < X1; ++X)
    for (int Y = 0; Y < F->N[1]; ++Y)
      for (int Z = 0; Z < F->N[2]; ++Z) {
        int C = cellIndex(F, X, Y, Z);
        struct Cell *Cell = &Grid[C];
        for (int A = 0; A < Cell->Count; ++A)
          for (int B = A + 1; B < Cell->Count; ++B)
            interact(F, Phase, C, &Cell->Part[A], C, &Cell->Part[B]);
        for (int DX = 0; DX <= 1; ++DX)
          for (int DY = -1; DY <= 1; ++DY)
            for (int DZ = -1; DZ <= 1; ++DZ) {
              if (DX == 0 && (DY < 0 || (DY == 0 && DZ <= 0)))
                continue;
              int NX = X + DX, NY = Y + DY, NZ = Z + DZ;
              if (NX >= F->N[0] || NY < 0 || NY >= F->N[1] || NZ < 0 ||
                  NZ >= F->N[2])
                continue;
              int CN = cellIndex(F, NX, NY, NZ);
              struct Cell *Other = &Grid[CN];
              for (int A = 0; A < Cell->Count; ++A)
                for (int B = 0; B < Other->Count; ++B)
                  interact(F, Phase, C, &Cell->Part[A], CN, &Other->Part[B]);
            }
      }
}

static void advance(struct Fluid *F, struct Cell *Grid, int X0, int X1) {
  for (int X = X0; X < X1; ++X)
    for (int C = cellIndex(F, X, 0, 0); C < cellIndex(F, X + 1, 0, 0); ++C)
      for (int A = 0; A < Grid[C].Count; ++A) {
        struct Particle *P = &Grid[C].Part[A];
        double Rho = 1.0 + (double)P->Density / kDensityScale;
        int Cell[3];
        for (int K = 0; K < 3; ++K) {
          double Acc = (double)P->Force[K] / kForceScale / Rho -
                       (K == 1 ? kGravity : 0.0);
          double V = P->V[K] + Acc * kDt;
          // At most half a cell per step, so particles only move to
          // neighbouring cells.
          double Limit = 0.5 / kDt;
          V = V > Limit ? Limit : V < -Limit ? -Limit : V;
          double Pos = P->P[K] + V * kDt;
          // Walls reflect, losing some energy. Mirroring (not clamping)
          // keeps particles that hit a wall apart.
          if (Pos < 0.0) {
            Pos = -0.5 * Pos;
            V = -0.5 * V;
          } else if (Pos >= F->N[K]) {
            Pos = F->N[K] - 0.5 * (Pos - F->N[K]) - 1e-9;
            V = -0.5 * V;
          }
          P->V[K] = V;
          P->P[K] = Pos;
          Cell[K] = (int)Pos;
        }
        P->NextCell = cellIndex(F, Cell[0], Cell[1], Cell[2]);
      }
}

// The own cells of the next grid, from the particles of the 27 cells around
// them, in a fixed order.
static void rebuild(struct Fluid *F, const struct Cell *From,
                    struct Cell *To, int X0, int X1) {
  for (int X = X0; X < X1; ++X)
    for (int Y = 0; Y < F->N[1]; ++Y)
      for (int Z = 0; Z < F->N[2]; ++Z) {
        int C = cellIndex(F, X, Y, Z);
        To[C].Count = 0;
        for (int DX = -1; DX <= 1; ++DX)
          for (int DY = -1; DY <= 1; ++DY)
            for (int DZ = -1; DZ <= 1; ++DZ) {
              int NX = X + DX, NY = Y + DY, NZ = Z + DZ;
              if (NX < 0 || NX >= F->N[0] || NY < 0 || NY >= F->N[1] ||
                  NZ < 0 || NZ >= F->N[2])
                continue;
              const struct Cell *Src = &From[cellIndex(F, NX, NY, NZ)];
              for (int A = 0; A < Src->Count; ++A) {
                if (Src->Part[A].NextCell != C)
                  continue;
                if (To[C].Count == kCapacity) {
                  fprintf(stderr, "fluidanimate: cell %d overflows\n", C);
                  exit(1);
                }
                To[C].Part[To[C].Count++] = Src->Part[A];
              }
            }
      }
}

static void worker(void *Arg, int Index) {
  struct Fluid *F = (struct Fluid *)Arg;
  int X0 = F->SlabBegin[Index], X1 = F->SlabBegin[Index + 1];
  int Cells = F->N[1] * F->N[2];
  for (int Frame = 0; Frame < F->Frames; ++Frame) {
    struct Cell *Grid = F->Grid[Frame & 1];
    for (int C = X0 * Cells; C < X1 * Cells; ++C)
      for (int A = 0; A < Grid[C].Count; ++A) {
        struct Particle *P = &Grid[C].Part[A];
        P->Density = 0;
        P->Force[0] = P->Force[1] = P->Force[2] = 0;
      }
    pthread_barrier_wait(&F->Barrier);
    pairs(F, Grid, 2, X0, X1);
    pthread_barrier_wait(&F->Barrier);
    pairs(F, Grid, 3, X0, X1);
    pthread_barrier_wait(&F->Barrier);
    advance(F, Grid, X0, X1);
    pthread_barrier_wait(&F->Barrier);
    rebuild(F, Grid, F->Grid[(Frame + 1) & 1], X0, X1);
    pthread_barrier_wait(&F->Barrier);
  }
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  struct Fluid F;
  int Side = (int)benchPick(&A, 8, 16, 20);
  F.N[0] = Side;
  F.N[1] = Side / 2;
  F.N[2] = Side;
  F.Frames = (int)benchPick(&A, 3, 190, 400);
  F.Threads = A.Threads;
  F.Race = A.Race;
  if (F.N[0] < 2 * A.Threads) {
    fprintf(stderr, "fluidanimate: too many threads for %d layers\n",
            F.N[0]);
    return 2;
  }
  int Cells = F.N[0] * F.N[1] * F.N[2];
  F.Grid[0] = (struct Cell *)benchAlloc(sizeof(struct Cell) * Cells);
  F.Grid[1] = (struct Cell *)benchAlloc(sizeof(struct Cell) * Cells);
  F.CellLock = (pthread_mutex_t *)benchAlloc(sizeof(pthread_mutex_t) * Cells);
  F.Border = (unsigned char *)benchAlloc(Cells);
  F.SlabBegin = (int *)benchAlloc(sizeof(int) * (A.Threads + 1));
  for (int T = 0; T <= A.Threads; ++T)
    F.SlabBegin[T] = F.N[0] * T / A.Threads;
  for (int T = 0; T < A.Threads; ++T)
    for (int Y = 0; Y < F.N[1]; ++Y)
      for (int Z = 0; Z < F.N[2]; ++Z) {
        if (T > 0)
          F.Border[cellIndex(&F, F.SlabBegin[T], Y, Z)] = 1;
        if (T + 1 < A.Threads)
          F.Border[cellIndex(&F, F.SlabBegin[T + 1] - 1, Y, Z)] = 1;
      }
  for (int C = 0; C < Cells; ++C)
    pthread_mutex_init(&F.CellLock[C], NULL);

  // A block of water over three quarters of the floor, eight particles per
  // cell on a jittered lattice: it collapses into the empty quarter.
  struct BenchRng Rng = benchRngMake(8);
  for (int X = 0; X < F.N[0] * 3 / 4; ++X)
    for (int Y = 0; Y < F.N[1]; ++Y)
      for (int Z = 0; Z < F.N[2]; ++Z) {
        struct Cell *Cell = &F.Grid[0][cellIndex(&F, X, Y, Z)];
        for (int K = 0; K < 8; ++K) {
          struct Particle *P = &Cell->Part[Cell->Count++];
          P->P[0] = X + 0.25 + 0.5 * (K & 1) + 0.1 * benchRngDouble(&Rng);
          P->P[1] = Y + 0.25 + 0.5 * ((K >> 1) & 1) +
                    0.1 * benchRngDouble(&Rng);
          P->P[2] = Z + 0.25 + 0.5 * (K >> 2) + 0.1 * benchRngDouble(&Rng);
        }
      }
  pthread_barrier_init(&F.Barrier, NULL, A.Threads);

  double Start = benchNow();
  benchParallel(A.Threads, worker, &F);

  const struct Cell *Final = F.Grid[F.Frames & 1];
  uint64_t H = BENCH_CHECKSUM_INIT;
  for (int C = 0; C < Cells; ++C) {
    H = benchHashU64(H, (uint64_t)Final[C].Count);
    for (int A = 0; A < Final[C].Count; ++A)
      for (int K = 0; K < 3; ++K)
        H = benchHashDouble(H, Final[C].Part[A].P[K]);
  }
  benchReport("fluidanimate", H, Start);
  pthread_barrier_destroy(&F.Barrier);
  for (int C = 0; C < Cells; ++C)
    pthread_mutex_destroy(&F.CellLock[C]);
  free(F.SlabBegin);
  free(F.Border);
  free(F.CellLock);
  free(F.Grid[1]);
  free(F.Grid[0]);
  return 0;
}
