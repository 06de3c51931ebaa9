//===-- x264.c - Frame-parallel video encoding with row progress ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's x264: H.264 encoding with frame threads. Thread t encodes frames
// t, t + T, t + 2T, ...; each P frame predicts from the reconstruction of
// the frame before it, which another thread is still producing. As in
// x264's frame threading, the encoder of a frame publishes its progress row
// by row (macroblock rows reconstructed, under the frame's mutex, with a
// condition variable broadcast), and the encoder of the next frame waits on
// it before searching the rows its motion vectors may reach. Reconstructed
// frames live in a ring of slots; a slot is reused once the frame that
// referenced its previous occupant is complete.
//
// Per macroblock: full-search motion estimation, a 4x4 integer transform of
// the residual, quantisation, and the reconstruction the next frame uses.
//
// -r: the frame threads add their bit counts to the shared total as they
// exit, without the lock. Nothing follows their last synchronisation, so the
// additions are unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

enum {
  kMb = 16,
  kRange = 6, // Motion search: +-kRange pixels.
};

struct Slot {
  pthread_mutex_t Lock;
  pthread_cond_t Progress;
  int Frame; // Frame held, -1 if none; guarded by Lock.
  int Rows;  // Macroblock rows reconstructed; guarded by Lock.
  unsigned char *Recon;
};

struct Encoder {
  int Width, Height, Frames, Threads, Race;
  int MbCols, MbRows;
  int Slots;
  struct Slot *Ring;
  long *FrameBits; // Per frame.
  pthread_mutex_t StatsLock;
  long TotalBits; // Guarded by StatsLock (except with -r).
};

// Source frame F: a textured background panning right, a bright square
// moving diagonally, and noise.
static void sourceFrame(const struct Encoder *E, int F, unsigned char *Out) {
  struct BenchRng R = benchRngMake(20000 + (uint64_t)F);
  for (int Y = 0; Y < E->Height; ++Y)
    for (int X = 0; X < E->Width; ++X) {
      int U = X + 2 * F;
      int V = (U * 7 + Y * 13) % 64 + ((U / 16 + Y / 16) % 2) * 40;
      int SX = (20 + 3 * F) % E->Width, SY = (10 + 2 * F) % E->Height;
      if (X >= SX && X < SX + 48 && Y >= SY && Y < SY + 48)
        V = 220;
      Out[Y * E->Width + X] = (unsigned char)(V + benchRngBelow(&R, 8));
    }
}

// Waits until Frame has Rows rows, or its slot has moved on to a later
// frame (which happens only once Frame is complete).
static void waitRows(struct Encoder *E, int Frame, int Rows) {
  struct Slot *S = &E->Ring[Frame % E->Slots];
  pthread_mutex_lock(&S->Lock);
  while (S->Frame < Frame || (S->Frame == Frame && S->Rows < Rows))
    pthread_cond_wait(&S->Progress, &S->Lock);
  pthread_mutex_unlock(&S->Lock);
}

static void publishRows(struct Slot *S, int Frame, int Rows) {
  pthread_mutex_lock(&S->Lock);
  S->Frame = Frame;
  S->Rows = Rows;
  pthread_cond_broadcast(&S->Progress);
  pthread_mutex_unlock(&S->Lock);
}

static int sad(const unsigned char *A, const unsigned char *B, int Stride) {
  int Sum = 0;
  for (int Y = 0; Y < kMb; ++Y)
    for (int X = 0; X < kMb; ++X)
      Sum += abs(A[Y * Stride + X] - B[Y * Stride + X]);
  return Sum;
}

// 4x4 Hadamard-like integer transform, quantisation by Qp, and back.
// Returns the estimated bits; Residual becomes the reconstructed residual.
static int codeBlock(int Residual[16], int Qp) {
  int T[16], Bits = 0;
  for (int I = 0; I < 4; ++I) {
    int *R = &Residual[I * 4];
    int A = R[0] + R[3], B = R[1] + R[2], C = R[1] - R[2], D = R[0] - R[3];
    T[I * 4 + 0] = A + B;
    T[I * 4 + 1] = 2 * D + C;
    T[I * 4 + 2] = A - B;
    T[I * 4 + 3] = D - 2 * C;
  }
  for (int I = 0; I < 4; ++I) {
    int A = T[I] + T[12 + I], B = T[4 + I] + T[8 + I];
    int C = T[4 + I] - T[8 + I], D = T[I] - T[12 + I];
    int Coef[4] = {A + B, 2 * D + C, A - B, D - 2 * C};
    for (int K = 0; K < 4; ++K) {
      int Level = Coef[K] / (Qp * 4);
      Bits += Level ? 4 + 2 * (abs(Level) > 3) : 0;
      T[K * 4 + I] = Level * Qp * 4;
    }
  }
  // Approximate inverse: the forward transform scaled down.
  for (int I = 0; I < 16; ++I)
    Residual[I] = T[I] / 16;
  return Bits + 1;
}

// Encodes macroblock row R of frame F into Recon; Ref is the previous
// frame's reconstruction, NULL for the intra frame.
static long encodeRow(const struct Encoder *E, const unsigned char *Src,
                      const unsigned char *Ref, unsigned char *Recon, int R,
                      int Qp) {
  long Bits = 0;
  int W = E->Width;
  unsigned char Pred[kMb * kMb];
  for (int C = 0; C < E->MbCols; ++C) {
    int X0 = C * kMb, Y0 = R * kMb;
    const unsigned char *Cur = &Src[Y0 * W + X0];
    if (Ref) {
      int BestX = 0, BestY = 0, Best = sad(Cur, &Ref[Y0 * W + X0], W);
      for (int DY = -kRange; DY <= kRange; ++DY)
        for (int DX = -kRange; DX <= kRange; ++DX) {
          int X = X0 + DX, Y = Y0 + DY;
          if (X < 0 || Y < 0 || X + kMb > W || Y + kMb > E->Height)
            continue;
          int Cost = sad(Cur, &Ref[Y * W + X], W) + 4 * (abs(DX) + abs(DY));
          if (Cost < Best) {
            Best = Cost;
            BestX = DX;
            BestY = DY;
          }
        }
      Bits += 2 + (BestX != 0) + (BestY != 0);
      for (int Y = 0; Y < kMb; ++Y)
        for (int X = 0; X < kMb; ++X)
          Pred[Y * kMb + X] = Ref[(Y0 + BestY + Y) * W + X0 + BestX + X];
    } else {
      // Intra: DC of the reconstructed pixels above and to the left.
      int Sum = 0, Count = 0;
      for (int I = 0; I < kMb; ++I) {
        if (Y0 > 0)
          Sum += Recon[(Y0 - 1) * W + X0 + I], Count++;
        if (X0 > 0)
          Sum += Recon[(Y0 + I) * W + X0 - 1], Count++;
      }
      memset(Pred, Count ? Sum / Count : 128, sizeof(Pred));
    }
    for (int BY = 0; BY < kMb; BY += 4)
      for (int BX = 0; BX < kMb; BX += 4) {
        int Residual[16];
        for (int I = 0; I < 16; ++I)
          Residual[I] = Cur[(BY + I / 4) * W + BX + I % 4] -
                        Pred[(BY + I / 4) * kMb + BX + I % 4];
        Bits += codeBlock(Residual, Qp);
        for (int I = 0; I < 16; ++I) {
          int V = Pred[(BY + I / 4) * kMb + BX + I % 4] + Residual[I];
          Recon[(Y0 + BY + I / 4) * W + X0 + BX + I % 4] =
              (unsigned char)(V < 0 ? 0 : V > 255 ? 255 : V);
        }
      }
  }
  return Bits;
}

static void frameThread(void *Arg, int Index) {
  struct Encoder *E = (struct Encoder *)Arg;
  unsigned char *Src = (unsigned char *)benchAlloc((size_t)E->Width *
                                                   E->Height);
  long Bits = 0;
  for (int F = Index; F < E->Frames; F += E->Threads) {
    // The slot's previous frame was referenced by its successor only.
    if (F >= E->Slots)
      waitRows(E, F - E->Slots + 1, E->MbRows);
    struct Slot *S = &E->Ring[F % E->Slots];
    publishRows(S, F, 0);
    sourceFrame(E, F, Src);
    const unsigned char *Ref =
        F > 0 ? E->Ring[(F - 1) % E->Slots].Recon : NULL;
    long FrameBits = 0;
    int Qp = 6 + F % 4;
    for (int R = 0; R < E->MbRows; ++R) {
      // Motion vectors reach one macroblock row down.
      if (Ref)
        waitRows(E, F - 1, R + 2 < E->MbRows ? R + 2 : E->MbRows);
      FrameBits += encodeRow(E, Src, Ref, S->Recon, R, Qp);
      publishRows(S, F, R + 1);
    }
    E->FrameBits[F] = FrameBits;
    Bits += FrameBits;
  }
  free(Src);
  if (E->Race) {
    E->TotalBits += Bits;
  } else {
    pthread_mutex_lock(&E->StatsLock);
    E->TotalBits += Bits;
    pthread_mutex_unlock(&E->StatsLock);
  }
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  struct Encoder E;
  E.Width = 640;
  E.Height = 352;
  E.Frames = (int)benchPick(&A, 4, 640, 3840);
  E.Threads = A.Threads;
  E.Race = A.Race;
  E.MbCols = E.Width / kMb;
  E.MbRows = E.Height / kMb;
  E.Slots = A.Threads + 2;
  E.Ring = (struct Slot *)benchAlloc(sizeof(struct Slot) * E.Slots);
  for (int I = 0; I < E.Slots; ++I) {
    pthread_mutex_init(&E.Ring[I].Lock, NULL);
    pthread_cond_init(&E.Ring[I].Progress, NULL);
    E.Ring[I].Frame = -1;
    E.Ring[I].Recon = (unsigned char *)benchAlloc((size_t)E.Width * E.Height);
  }
  E.FrameBits = (long *)benchAlloc(sizeof(long) * E.Frames);
  pthread_mutex_init(&E.StatsLock, NULL);
  E.TotalBits = 0;

  double Start = benchNow();
  benchParallel(A.Threads, frameThread, &E);

  uint64_t H = benchHashU64(BENCH_CHECKSUM_INIT, (uint64_t)E.TotalBits);
  for (int F = 0; F < E.Frames; ++F)
    H = benchHashU64(H, (uint64_t)E.FrameBits[F]);
  const struct Slot *Last = &E.Ring[(E.Frames - 1) % E.Slots];
  H = benchHashBytes(H, Last->Recon, (size_t)E.Width * E.Height);
  benchReport("x264", H, Start);
  printf("x264: %d frames, %ld bits\n", E.Frames, E.TotalBits);
  for (int I = 0; I < E.Slots; ++I) {
    pthread_mutex_destroy(&E.Ring[I].Lock);
    pthread_cond_destroy(&E.Ring[I].Progress);
    free(E.Ring[I].Recon);
  }
  pthread_mutex_destroy(&E.StatsLock);
  free(E.FrameBits);
  free(E.Ring);
  return 0;
}
