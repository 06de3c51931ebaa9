//===-- swaptions.c - Independent Monte Carlo simulations per thread ------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's swaptions: a portfolio of swaptions priced by Monte Carlo
// simulation of the Heath-Jarrow-Morton model of the forward rate curve.
// Each thread prices a static slice of the portfolio on its own heap
// matrices with one random stream per swaption; the threads share nothing
// but the read-only portfolio and meet only at create and join.
//
// -r: one random stream for the whole program, as if the per-swaption seed
// had been forgotten. Both threads read and write its state with no
// synchronisation in between.
//
//===----------------------------------------------------------------------===//

#include "common.h"

enum {
  kSteps = 16,  // Time steps to the swaption's maturity.
  kTenors = 16, // Points of the forward curve.
  kFactors = 3, // Volatility factors of the HJM model.
};

struct Swaption {
  double Strike;
  double Maturity; // Years.
  double Vol[kFactors][kTenors];
  double Initial[kTenors]; // Today's forward curve.
  double Price, StdError;
};

struct Book {
  struct Swaption *Swaptions;
  int Count;
  int Trials;
  int Threads;
  int Race;
  struct BenchRng SharedRng; // -r only.
};

static double gaussian(struct BenchRng *R) {
  double U1 = benchRngDouble(R) + 1e-300, U2 = benchRngDouble(R);
  return sqrt(-2.0 * log(U1)) * cos(6.283185307179586 * U2);
}

// One path: evolve the whole curve kSteps times, then value the swap at
// maturity against the strike. Path is a kSteps+1 by kTenors matrix.
static double simulatePath(const struct Swaption *S, double *Path,
                           double *Shocks, struct BenchRng *R) {
  double Dt = S->Maturity / kSteps;
  double SqrtDt = sqrt(Dt);
  for (int J = 0; J < kTenors; ++J)
    Path[J] = S->Initial[J];
  for (int Step = 1; Step <= kSteps; ++Step) {
    for (int K = 0; K < kFactors; ++K)
      Shocks[K] = gaussian(R);
    const double *Prev = &Path[(Step - 1) * kTenors];
    double *Next = &Path[Step * kTenors];
    for (int J = 0; J < kTenors; ++J) {
      // HJM drift: sum over factors of vol(J) * integral of vol up to J.
      double Drift = 0.0, Diffusion = 0.0;
      for (int K = 0; K < kFactors; ++K) {
        double Integral = 0.0;
        for (int L = 0; L <= J; ++L)
          Integral += S->Vol[K][L];
        Drift += S->Vol[K][J] * Integral * Dt / kTenors;
        Diffusion += S->Vol[K][J] * Shocks[K];
      }
      double Up = J + 1 < kTenors ? Prev[J + 1] : Prev[J];
      Next[J] = Prev[J] + (Drift + 0.5 * (Up - Prev[J])) * Dt +
                Diffusion * SqrtDt;
    }
  }
  // Payer swaption: the annuity-weighted swap rate over the strike.
  const double *Final = &Path[kSteps * kTenors];
  double Discount = 1.0, Annuity = 0.0, Floating = 0.0;
  for (int J = 0; J < kTenors; ++J) {
    Discount /= 1.0 + 0.25 * Final[J];
    Annuity += 0.25 * Discount;
    Floating += 0.25 * Final[J] * Discount;
  }
  double Payoff = Floating - S->Strike * Annuity;
  return Payoff > 0.0 ? Payoff * exp(-Final[0] * S->Maturity) : 0.0;
}

static void worker(void *Arg, int Index) {
  struct Book *B = (struct Book *)Arg;
  double *Path =
      (double *)benchAlloc(sizeof(double) * (kSteps + 1) * kTenors);
  double *Shocks = (double *)benchAlloc(sizeof(double) * kFactors);
  int Begin = B->Count * Index / B->Threads;
  int End = B->Count * (Index + 1) / B->Threads;
  for (int I = Begin; I < End; ++I) {
    struct Swaption *S = &B->Swaptions[I];
    struct BenchRng Own = benchRngMake(1000 + (uint64_t)I);
    struct BenchRng *R = B->Race ? &B->SharedRng : &Own;
    double Sum = 0.0, SumSq = 0.0;
    for (int T = 0; T < B->Trials; ++T) {
      double V = simulatePath(S, Path, Shocks, R);
      Sum += V;
      SumSq += V * V;
    }
    S->Price = Sum / B->Trials;
    S->StdError =
        sqrt((SumSq / B->Trials - S->Price * S->Price) / B->Trials);
  }
  free(Shocks);
  free(Path);
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  int Count = (int)benchPick(&A, 4, 32, 64);
  int Trials = (int)benchPick(&A, 500, 20000, 60000);

  struct Swaption *Swaptions =
      (struct Swaption *)benchAlloc(sizeof(struct Swaption) * Count);
  struct BenchRng Rng = benchRngMake(2);
  for (int I = 0; I < Count; ++I) {
    struct Swaption *S = &Swaptions[I];
    S->Strike = 0.02 + 0.04 * benchRngDouble(&Rng);
    S->Maturity = 1.0 + 4.0 * benchRngDouble(&Rng);
    double Level = 0.02 + 0.03 * benchRngDouble(&Rng);
    for (int J = 0; J < kTenors; ++J)
      S->Initial[J] = Level + 0.001 * J;
    for (int K = 0; K < kFactors; ++K)
      for (int J = 0; J < kTenors; ++J)
        S->Vol[K][J] = (0.002 + 0.008 * benchRngDouble(&Rng)) / (1 + K);
  }

  struct Book B = {Swaptions, Count, Trials, A.Threads, A.Race,
                   benchRngMake(3)};
  double Start = benchNow();
  benchParallel(A.Threads, worker, &B);

  uint64_t H = BENCH_CHECKSUM_INIT;
  for (int I = 0; I < Count; ++I) {
    H = benchHashDouble(H, Swaptions[I].Price);
    H = benchHashDouble(H, Swaptions[I].StdError);
  }
  benchReport("swaptions", H, Start);
  free(Swaptions);
  return 0;
}
