//===-- vips.c - Image pipeline over a work queue of tiles ----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's vips: an image pipeline (affine transform, sharpening
// convolution, colour matrix and gamma) evaluated demand-driven, tile by
// tile. The main thread is the sink: it pushes the tiles of each band of
// the output on a bounded work queue (mutex and condition variables,
// common.h), the workers compute them into a ring of band buffers and count
// finished tiles per band under a mutex, signalling the sink on a condition
// variable when a band is complete; the sink then writes the band out (here,
// hashes it) and reuses its buffer.
//
// -r: the gamma table is built lazily by the first worker to start, with an
// unguarded "ready" flag, instead of by main before starting them. The
// workers do it before their first synchronisation, so their accesses are
// unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

enum {
  kTile = 64,
  kRing = 4, // Band buffers.
  kQueueDepth = 64,
};

struct Job {
  int Band, Column;
};

struct Vips {
  int Width, Height, Passes, Race;
  const unsigned char *In; // RGB.
  double Cos, Sin, Scale;  // This pass's transform.
  unsigned char *Ring[kRing];
  unsigned char Gamma[4096];
  int GammaReady; // -r: the unguarded lazy-initialisation flag.
  struct BenchQueue Work;
  pthread_mutex_t DoneLock;
  pthread_cond_t BandDone;
  int TilesDone[kRing]; // Guarded by DoneLock.
  struct Job *Jobs;     // One per tile of a band; reused.
};

static void buildGamma(unsigned char *Gamma) {
  for (int I = 0; I < 4096; ++I)
    Gamma[I] = (unsigned char)(255.0 * pow(I / 4095.0, 1.0 / 2.2) + 0.5);
}

// Bilinear sample of the input at the inverse transform of (X, Y).
static void sampleInput(const struct Vips *V, int X, int Y, float Out[3]) {
  double CX = V->Width / 2.0, CY = V->Height / 2.0;
  double DX = (X - CX) / V->Scale, DY = (Y - CY) / V->Scale;
  double SX = CX + V->Cos * DX + V->Sin * DY;
  double SY = CY - V->Sin * DX + V->Cos * DY;
  if (SX < 0 || SY < 0 || SX >= V->Width - 1 || SY >= V->Height - 1) {
    Out[0] = Out[1] = Out[2] = 0.0f;
    return;
  }
  int IX = (int)SX, IY = (int)SY;
  float FX = (float)(SX - IX), FY = (float)(SY - IY);
  const unsigned char *P = &V->In[((size_t)IY * V->Width + IX) * 3];
  const unsigned char *Q = P + (size_t)V->Width * 3;
  for (int C = 0; C < 3; ++C)
    Out[C] = (P[C] * (1 - FX) + P[C + 3] * FX) * (1 - FY) +
             (Q[C] * (1 - FX) + Q[C + 3] * FX) * FY;
}

// One output tile: the transformed input with a one-pixel margin into
// Scratch, then sharpen, colour matrix and gamma into the band buffer.
static void renderTile(const struct Vips *V, const struct Job *J,
                       float *Scratch) {
  int X0 = J->Column * kTile, Y0 = J->Band * kTile;
  for (int Y = -1; Y <= kTile; ++Y)
    for (int X = -1; X <= kTile; ++X)
      sampleInput(V, X0 + X, Y0 + Y,
                  &Scratch[((Y + 1) * (kTile + 2) + X + 1) * 3]);
  static const float Sharpen[3][3] = {
      {0.0f, -0.5f, 0.0f}, {-0.5f, 3.0f, -0.5f}, {0.0f, -0.5f, 0.0f}};
  static const float Matrix[3][3] = {
      {0.9f, 0.1f, 0.0f}, {0.05f, 0.85f, 0.1f}, {0.0f, 0.15f, 0.85f}};
  unsigned char *Band = V->Ring[J->Band % kRing];
  for (int Y = 0; Y < kTile && Y0 + Y < V->Height; ++Y)
    for (int X = 0; X < kTile && X0 + X < V->Width; ++X) {
      float Sharp[3] = {0, 0, 0};
      for (int KY = 0; KY < 3; ++KY)
        for (int KX = 0; KX < 3; ++KX) {
          const float *S = &Scratch[((Y + KY) * (kTile + 2) + X + KX) * 3];
          for (int C = 0; C < 3; ++C)
            Sharp[C] += Sharpen[KY][KX] * S[C];
        }
      unsigned char *Out = &Band[((size_t)Y * V->Width + X0 + X) * 3];
      for (int C = 0; C < 3; ++C) {
        float Mixed = Matrix[C][0] * Sharp[0] + Matrix[C][1] * Sharp[1] +
                      Matrix[C][2] * Sharp[2];
        int Level = (int)(Mixed * 16.0f);
        Out[C] = V->Gamma[Level < 0 ? 0 : Level > 4095 ? 4095 : Level];
      }
    }
}

static void worker(void *Arg, int Index) {
  struct Vips *V = (struct Vips *)Arg;
  (void)Index;
  if (V->Race && !V->GammaReady) {
    buildGamma(V->Gamma);
    V->GammaReady = 1;
  }
  float *Scratch =
      (float *)benchAlloc(sizeof(float) * (kTile + 2) * (kTile + 2) * 3);
  struct Job *J;
  while ((J = (struct Job *)benchQueuePop(&V->Work))) {
    renderTile(V, J, Scratch);
    int Columns = (V->Width + kTile - 1) / kTile;
    pthread_mutex_lock(&V->DoneLock);
    if (++V->TilesDone[J->Band % kRing] == Columns)
      pthread_cond_signal(&V->BandDone);
    pthread_mutex_unlock(&V->DoneLock);
  }
  free(Scratch);
}

// The sink waits for band B, hashes it and frees its buffer.
static uint64_t writeBand(struct Vips *V, int B, uint64_t H) {
  int Columns = (V->Width + kTile - 1) / kTile;
  pthread_mutex_lock(&V->DoneLock);
  while (V->TilesDone[B % kRing] < Columns)
    pthread_cond_wait(&V->BandDone, &V->DoneLock);
  V->TilesDone[B % kRing] = 0;
  pthread_mutex_unlock(&V->DoneLock);
  int Rows = V->Height - B * kTile < kTile ? V->Height - B * kTile : kTile;
  return benchHashBytes(H, V->Ring[B % kRing], (size_t)Rows * V->Width * 3);
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  struct Vips *V = (struct Vips *)benchAlloc(sizeof(struct Vips));
  V->Width = V->Height = (int)benchPick(&A, 256, 2400, 2400);
  V->Passes = (int)benchPick(&A, 1, 12, 72);
  V->Race = A.Race;
  // Gradients, rings and noise.
  unsigned char *In =
      (unsigned char *)benchAlloc((size_t)V->Width * V->Height * 3);
  struct BenchRng R = benchRngMake(12);
  for (int Y = 0; Y < V->Height; ++Y)
    for (int X = 0; X < V->Width; ++X) {
      unsigned char *P = &In[((size_t)Y * V->Width + X) * 3];
      double Ring = sin(sqrt((double)(X - 600) * (X - 600) +
                             (double)(Y - 400) * (Y - 400)) * 0.05);
      P[0] = (unsigned char)(X * 255 / V->Width);
      P[1] = (unsigned char)(127 + 100 * Ring);
      P[2] = (unsigned char)(Y * 200 / V->Height + benchRngBelow(&R, 55));
    }
  V->In = In;
  for (int B = 0; B < kRing; ++B)
    V->Ring[B] = (unsigned char *)benchAlloc((size_t)kTile * V->Width * 3);
  if (!A.Race)
    buildGamma(V->Gamma);
  int Columns = (V->Width + kTile - 1) / kTile;
  int Bands = (V->Height + kTile - 1) / kTile;
  V->Jobs = (struct Job *)benchAlloc(sizeof(struct Job) * Bands * Columns);
  for (int B = 0; B < Bands; ++B)
    for (int C = 0; C < Columns; ++C)
      V->Jobs[B * Columns + C] = (struct Job){B, C};
  benchQueueInit(&V->Work, kQueueDepth, 1);
  pthread_mutex_init(&V->DoneLock, NULL);
  pthread_cond_init(&V->BandDone, NULL);

  double Start = benchNow();
  struct BenchTeam Workers = benchTeamStart(A.Threads, worker, V);
  uint64_t H = BENCH_CHECKSUM_INIT;
  for (int Pass = 0; Pass < V->Passes; ++Pass) {
    // The transform changes between passes: only when the workers are
    // idle, after the last band of the previous pass was written.
    double Angle = 0.05 + 0.1 * Pass;
    V->Cos = cos(Angle);
    V->Sin = sin(Angle);
    V->Scale = 1.0 + 0.05 * Pass;
    for (int B = 0; B < Bands; ++B) {
      if (B >= kRing)
        H = writeBand(V, B - kRing, H);
      for (int C = 0; C < Columns; ++C)
        benchQueuePush(&V->Work, &V->Jobs[B * Columns + C]);
    }
    for (int B = Bands > kRing ? Bands - kRing : 0; B < Bands; ++B)
      H = writeBand(V, B, H);
  }
  benchQueueClose(&V->Work);
  benchTeamJoin(&Workers);

  benchReport("vips", H, Start);
  pthread_cond_destroy(&V->BandDone);
  pthread_mutex_destroy(&V->DoneLock);
  benchQueueDestroy(&V->Work);
  free(V->Jobs);
  for (int B = 0; B < kRing; ++B)
    free(V->Ring[B]);
  free(In);
  free(V);
  return 0;
}
