//===-- blackscholes.c - Data-parallel option pricing, no barriers --------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's blackscholes: a portfolio of European options priced with the
// Black-Scholes formula, the whole portfolio again and again. Each thread
// owns a static slice of the arrays; the only synchronisation is
// pthread_create and pthread_join (table 2 of the Helgrind+ paper: no lock,
// no condition variable).
//
// -r: the threads count priced options in one shared counter instead of
// their own slot. No synchronisation at all happens between the threads, so
// every pair of increments is unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

struct Option {
  float Spot, Strike, Rate, Volatility, Time;
  int IsPut;
};

struct Portfolio {
  const struct Option *Options;
  float *Prices;
  int Count;
  int Runs;
  int Threads;
  int Race;
  long *Priced;     // One slot per thread, padded.
  long SharedPriced; // -r: every thread counts here.
};

enum { kPad = 8 }; // longs per cache line.

// Cumulative normal distribution, the polynomial approximation PARSEC uses
// (Abramowitz and Stegun 26.2.17).
static float cndf(float X) {
  int Negative = X < 0.0f;
  if (Negative)
    X = -X;
  float K = 1.0f / (1.0f + 0.2316419f * X);
  float Poly =
      K * (0.319381530f +
           K * (-0.356563782f +
                K * (1.781477937f + K * (-1.821255978f + K * 1.330274429f))));
  float N = 1.0f - 0.39894228f * expf(-0.5f * X * X) * Poly;
  return Negative ? 1.0f - N : N;
}

static float price(const struct Option *O) {
  float SqrtT = sqrtf(O->Time);
  float D1 = (logf(O->Spot / O->Strike) +
              (O->Rate + 0.5f * O->Volatility * O->Volatility) * O->Time) /
             (O->Volatility * SqrtT);
  float D2 = D1 - O->Volatility * SqrtT;
  float Discounted = O->Strike * expf(-O->Rate * O->Time);
  if (O->IsPut)
    return Discounted * cndf(-D2) - O->Spot * cndf(-D1);
  return O->Spot * cndf(D1) - Discounted * cndf(D2);
}

static void worker(void *Arg, int Index) {
  struct Portfolio *P = (struct Portfolio *)Arg;
  int Begin = (int)((long)P->Count * Index / P->Threads);
  int End = (int)((long)P->Count * (Index + 1) / P->Threads);
  for (int Run = 0; Run < P->Runs; ++Run) {
    for (int I = Begin; I < End; ++I) {
      P->Prices[I] = price(&P->Options[I]);
      if (P->Race)
        P->SharedPriced++;
      else
        P->Priced[Index * kPad]++;
    }
  }
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  int Count = (int)benchPick(&A, 4096, 65536, 65536);
  int Runs = (int)benchPick(&A, 4, 800, 5000);

  struct Option *Options =
      (struct Option *)benchAlloc(sizeof(struct Option) * Count);
  struct BenchRng Rng = benchRngMake(1);
  for (int I = 0; I < Count; ++I) {
    Options[I].Spot = (float)(20.0 + 80.0 * benchRngDouble(&Rng));
    Options[I].Strike = (float)(20.0 + 80.0 * benchRngDouble(&Rng));
    Options[I].Rate = (float)(0.01 + 0.09 * benchRngDouble(&Rng));
    Options[I].Volatility = (float)(0.05 + 0.6 * benchRngDouble(&Rng));
    Options[I].Time = (float)(0.1 + 2.0 * benchRngDouble(&Rng));
    Options[I].IsPut = (int)(benchRngNext(&Rng) & 1);
  }

  struct Portfolio P = {Options, (float *)benchAlloc(sizeof(float) * Count),
                        Count, Runs, A.Threads, A.Race,
                        (long *)benchAlloc(sizeof(long) * kPad * A.Threads),
                        0};
  double Start = benchNow();
  benchParallel(A.Threads, worker, &P);

  long Priced = P.SharedPriced;
  for (int T = 0; T < A.Threads; ++T)
    Priced += P.Priced[T * kPad];
  uint64_t H = benchHashU64(BENCH_CHECKSUM_INIT, (uint64_t)Priced);
  for (int I = 0; I < Count; ++I)
    H = benchHashDouble(H, P.Prices[I]);
  benchReport("blackscholes", H, Start);
  free(P.Priced);
  free(P.Prices);
  free(Options);
  return 0;
}
