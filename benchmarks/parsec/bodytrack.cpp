//===-- bodytrack.cpp - Particle filter on a thread pool ------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's bodytrack: tracks a body through a video with an annealed
// particle filter. Its threads form a pool, as in bodytrack's
// WorkPoolPthread:
//
//   - the main thread posts a command (blur the frame's edge map, or weigh
//     the particles) under a mutex and wakes the workers with a condition
//     variable broadcast;
//   - the workers take chunks of rows or particles from a ticket counter
//     under a second mutex;
//   - workers and main meet at a barrier when the command is done, and main
//     alone resamples the particles.
//
// C++: std::thread, std::mutex and std::condition_variable (through
// libstdc++), pthread_barrier_t for completion.
//
// -r: each worker merges the lowest error it met into one shared minimum
// after taking its last ticket (its last release) and before the barrier,
// without the lock; the two workers' merges are unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

constexpr int kDims = 8;          // Pose: position, torso, two arms, two legs.
constexpr int kLimbs = 5;         // Torso, arms and legs as segments.
constexpr int kSamples = 24;      // Sample points along each limb.
constexpr int kLayers = 3;        // Annealing layers per frame.
constexpr int kParticleChunk = 32;
constexpr int kRowChunk = 8;

enum class Command { BlurRows, BlurColumns, Weigh, Exit };

struct Pose {
  double V[kDims];
};

struct Tracker {
  int Width, Height, Particles;
  int Race;
  std::vector<float> Edges;   // This frame's edge map.
  std::vector<float> Blurred; // Edges blurred along rows, then columns.
  std::vector<float> Scratch;
  std::vector<Pose> Poses;
  std::vector<double> Error;

  // Command posting.
  std::mutex CommandLock;
  std::condition_variable CommandPosted;
  Command Current = Command::Exit;
  unsigned Generation = 0;

  // Work distribution.
  std::mutex TicketLock;
  int NextTicket = 0;
  int Tickets = 0;

  pthread_barrier_t Done;
  std::vector<double> MinError; // Per worker.
  double SharedMinError = 0;    // -r only.
};

// The limbs of a pose as segments in image coordinates.
void limbs(const Pose &P, double Seg[kLimbs][4]) {
  double X = P.V[0], Y = P.V[1];
  double Neck[2] = {X + 30 * sin(P.V[2]), Y - 30 * cos(P.V[2])};
  Seg[0][0] = X, Seg[0][1] = Y, Seg[0][2] = Neck[0], Seg[0][3] = Neck[1];
  for (int L = 1; L < kLimbs; ++L) {
    const double *From = L <= 2 ? Neck : &Seg[0][0];
    double Angle = P.V[2 + L];
    Seg[L][0] = From[0];
    Seg[L][1] = From[1];
    Seg[L][2] = From[0] + 25 * sin(Angle);
    Seg[L][3] = From[1] + 25 * cos(Angle);
  }
}

// The true pose of frame F: a figure walking across the image.
Pose truePose(int F, int Width, int Height) {
  Pose P;
  P.V[0] = Width * 0.2 + F * 1.5;
  P.V[1] = Height * 0.6 + 5 * sin(F * 0.3);
  P.V[2] = 0.1 * sin(F * 0.1);
  P.V[3] = 2.2 + 0.4 * sin(F * 0.2);
  P.V[4] = -2.2 - 0.4 * sin(F * 0.2);
  P.V[5] = 0.4 * sin(F * 0.25);
  P.V[6] = -0.4 * sin(F * 0.25);
  P.V[7] = 0;
  return P;
}

float sample(const std::vector<float> &Image, int Width, int Height, double X,
             double Y) {
  if (X < 0 || Y < 0 || X >= Width - 1 || Y >= Height - 1)
    return 0.0f;
  int IX = (int)X, IY = (int)Y;
  float FX = (float)(X - IX), FY = (float)(Y - IY);
  const float *Row = &Image[(size_t)IY * Width + IX];
  return (Row[0] * (1 - FX) + Row[1] * FX) * (1 - FY) +
         (Row[Width] * (1 - FX) + Row[Width + 1] * FX) * FY;
}

// One row of a 7-tap blur, horizontal (Step 1) or vertical (Step Width).
void blurRow(const float *In, float *Out, int Row, int Width, int Height,
             int Step) {
  static const float Taps[7] = {0.03f, 0.1f, 0.22f, 0.3f,
                                0.22f, 0.1f, 0.03f};
  int Limit = Step == 1 ? Width : Height;
  for (int X = 0; X < Width; ++X) {
    int Pos = Step == 1 ? X : Row;
    float Sum = 0.0f;
    for (int K = -3; K <= 3; ++K) {
      int P = Pos + K < 0 ? 0 : Pos + K >= Limit ? Limit - 1 : Pos + K;
      Sum += Taps[K + 3] * In[Step == 1 ? (size_t)Row * Width + P
                                        : (size_t)P * Width + X];
    }
    Out[(size_t)Row * Width + X] = Sum;
  }
}

double poseError(const Tracker &T, const Pose &P) {
  double Seg[kLimbs][4];
  limbs(P, Seg);
  double Error = 0.0;
  for (int L = 0; L < kLimbs; ++L)
    for (int S = 0; S < kSamples; ++S) {
      double U = (S + 0.5) / kSamples;
      Error += 1.0 - sample(T.Blurred, T.Width, T.Height,
                            Seg[L][0] + U * (Seg[L][2] - Seg[L][0]),
                            Seg[L][1] + U * (Seg[L][3] - Seg[L][1]));
    }
  return Error;
}

int takeTicket(Tracker &T) {
  std::lock_guard<std::mutex> Guard(T.TicketLock);
  return T.NextTicket < T.Tickets ? T.NextTicket++ : -1;
}

void runCommand(Tracker &T, Command C, int Index) {
  double MinError = 1e300;
  for (int Ticket; (Ticket = takeTicket(T)) >= 0;) {
    if (C != Command::Weigh) {
      // Rows blur Edges into Scratch, columns Scratch into Blurred.
      bool Rows = C == Command::BlurRows;
      int First = Ticket * kRowChunk;
      for (int R = First; R < First + kRowChunk && R < T.Height; ++R)
        blurRow(Rows ? T.Edges.data() : T.Scratch.data(),
                Rows ? T.Scratch.data() : T.Blurred.data(), R, T.Width,
                T.Height, Rows ? 1 : T.Width);
    } else {
      int First = Ticket * kParticleChunk;
      for (int I = First; I < First + kParticleChunk && I < T.Particles; ++I) {
        T.Error[I] = poseError(T, T.Poses[I]);
        if (T.Error[I] < MinError)
          MinError = T.Error[I];
      }
    }
  }
  if (C == Command::Weigh) {
    if (T.Race) {
      if (MinError < T.SharedMinError)
        T.SharedMinError = MinError;
    } else {
      T.MinError[Index] = MinError;
    }
  }
}

void worker(Tracker &T, int Index) {
  unsigned Seen = 0;
  for (;;) {
    Command C;
    {
      std::unique_lock<std::mutex> Guard(T.CommandLock);
      T.CommandPosted.wait(Guard, [&] { return T.Generation != Seen; });
      Seen = T.Generation;
      C = T.Current;
    }
    if (C == Command::Exit)
      return;
    runCommand(T, C, Index);
    pthread_barrier_wait(&T.Done);
  }
}

// Main's side of a command: post it and wait for the workers to finish.
void post(Tracker &T, Command C, int Tickets) {
  {
    std::lock_guard<std::mutex> Guard(T.TicketLock);
    T.NextTicket = 0;
    T.Tickets = Tickets;
  }
  {
    std::lock_guard<std::mutex> Guard(T.CommandLock);
    T.Current = C;
    T.Generation++;
  }
  T.CommandPosted.notify_all();
  if (C != Command::Exit)
    pthread_barrier_wait(&T.Done);
}

void drawFrame(Tracker &T, int F, BenchRng *Rng) {
  for (float &E : T.Edges)
    E = 0.15f * (float)benchRngDouble(Rng);
  double Seg[kLimbs][4];
  limbs(truePose(F, T.Width, T.Height), Seg);
  for (int L = 0; L < kLimbs; ++L)
    for (int S = 0; S <= 200; ++S) {
      double U = S / 200.0;
      int X = (int)(Seg[L][0] + U * (Seg[L][2] - Seg[L][0]));
      int Y = (int)(Seg[L][1] + U * (Seg[L][3] - Seg[L][1]));
      if (X >= 0 && Y >= 0 && X < T.Width && Y < T.Height)
        T.Edges[(size_t)Y * T.Width + X] = 1.0f;
    }
}

// Main, after the weighing barrier: weights, estimate, resampling.
Pose resample(Tracker &T, int Layer, BenchRng *Rng) {
  double MinError = T.SharedMinError;
  for (double E : T.MinError)
    MinError = E < MinError ? E : MinError;
  double Beta = 0.3 * (Layer + 1);
  std::vector<double> Cumulative(T.Particles);
  double Total = 0.0;
  Pose Estimate{};
  for (int I = 0; I < T.Particles; ++I) {
    double W = exp(-Beta * (T.Error[I] - MinError));
    Total += W;
    Cumulative[I] = Total;
    for (int D = 0; D < kDims; ++D)
      Estimate.V[D] += W * T.Poses[I].V[D];
  }
  for (int D = 0; D < kDims; ++D)
    Estimate.V[D] /= Total;
  // Systematic resampling plus annealing noise.
  std::vector<Pose> Next(T.Particles);
  double Spread = 1.0 / (Layer + 1);
  double U = benchRngDouble(Rng) * Total / T.Particles;
  for (int I = 0, J = 0; I < T.Particles; ++I, U += Total / T.Particles) {
    while (J < T.Particles - 1 && Cumulative[J] < U)
      J++;
    Next[I] = T.Poses[J];
    for (int D = 0; D < kDims; ++D)
      Next[I].V[D] +=
          (benchRngDouble(Rng) - 0.5) * Spread * (D < 2 ? 4.0 : 0.1);
  }
  T.Poses.swap(Next);
  T.SharedMinError = 1e300;
  return Estimate;
}

} // namespace

int main(int Argc, char **Argv) {
  BenchArgs A = benchParseArgs(Argc, Argv);
  Tracker T;
  T.Width = 320;
  T.Height = 240;
  T.Particles = (int)benchPick(&A, 256, 4000, 4000);
  int Frames = (int)benchPick(&A, 3, 180, 1080);
  T.Race = A.Race;
  T.Edges.resize((size_t)T.Width * T.Height);
  T.Blurred.resize(T.Edges.size());
  T.Scratch.resize(T.Edges.size());
  T.Error.resize(T.Particles);
  T.MinError.assign(A.Threads, 1e300);
  T.SharedMinError = 1e300;
  BenchRng Rng = benchRngMake(7);
  Pose Start = truePose(0, T.Width, T.Height);
  T.Poses.assign(T.Particles, Start);
  pthread_barrier_init(&T.Done, nullptr, A.Threads + 1);

  double RoiStart = benchNow();
  std::vector<std::thread> Workers;
  for (int I = 0; I < A.Threads; ++I)
    Workers.emplace_back(worker, std::ref(T), I);
  uint64_t H = BENCH_CHECKSUM_INIT;
  int RowTickets = (T.Height + kRowChunk - 1) / kRowChunk;
  for (int F = 0; F < Frames; ++F) {
    drawFrame(T, F, &Rng);
    // The column pass needs every row: two commands, so that the barrier
    // separates them.
    post(T, Command::BlurRows, RowTickets);
    post(T, Command::BlurColumns, RowTickets);
    Pose Estimate{};
    for (int Layer = 0; Layer < kLayers; ++Layer) {
      post(T, Command::Weigh,
           (T.Particles + kParticleChunk - 1) / kParticleChunk);
      Estimate = resample(T, Layer, &Rng);
    }
    for (int D = 0; D < kDims; ++D)
      H = benchHashDouble(H, Estimate.V[D]);
  }
  post(T, Command::Exit, 0);
  for (std::thread &W : Workers)
    W.join();
  pthread_barrier_destroy(&T.Done);
  benchReport("bodytrack", H, RoiStart);
  return 0;
}
