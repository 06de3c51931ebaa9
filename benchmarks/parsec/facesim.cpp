//===-- facesim.cpp - Implicit mesh simulation on a task queue ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's facesim: a face mesh moved by muscle activations, integrated
// implicitly, so every time step solves a linear system with conjugate
// gradients. The parallelism is PARSEC's TaskQ: the main thread cuts each
// phase (spring forces, the matrix-vector product, the vector updates of a
// CG iteration, integration) into one task per mesh partition, pushes them
// on a queue guarded by a mutex, wakes the workers with a condition
// variable and sleeps on a second one until the last task is done. Main
// combines the per-partition dot products in a fixed order, so the result
// does not depend on the thread count.
//
// -r: the material table (stiffness per spring kind) is built lazily by the
// first worker to start, with an unguarded "ready" flag, instead of by main
// before starting them. The workers do it before their first
// synchronisation, so their accesses are unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

#include <vector>

namespace {

constexpr int kPartitions = 16;
constexpr int kCgIterations = 16;
constexpr int kMaterials = 64;
constexpr double kDt = 0.01;
constexpr double kMass = 1.0;

struct Vec3 {
  double X, Y, Z;
};

Vec3 operator+(Vec3 A, Vec3 B) { return {A.X + B.X, A.Y + B.Y, A.Z + B.Z}; }
Vec3 operator-(Vec3 A, Vec3 B) { return {A.X - B.X, A.Y - B.Y, A.Z - B.Z}; }
Vec3 operator*(double S, Vec3 A) { return {S * A.X, S * A.Y, S * A.Z}; }
double dot(Vec3 A, Vec3 B) { return A.X * B.X + A.Y * B.Y + A.Z * B.Z; }

struct Mesh;
using TaskFn = void (*)(Mesh &, int Partition);

struct Mesh {
  int N; // Nodes per side of the N x N x N lattice.
  int Race;
  std::vector<Vec3> Rest, X, V, Force;
  // CG vectors.
  std::vector<Vec3> Dv, R, P, Q;
  double Alpha = 0, Beta = 0;
  double Partial[kPartitions];
  double Time = 0;
  double Material[kMaterials];
  int MaterialReady = 0; // -r: the unguarded lazy-initialisation flag.

  // The task queue.
  pthread_mutex_t Lock;
  pthread_cond_t TaskReady, AllDone;
  std::vector<int> Tasks; // Partitions still to run, guarded by Lock.
  TaskFn Current = nullptr;
  int Pending = 0; // Tasks not finished yet, guarded by Lock.
  bool Exit = false;

  int index(int I, int J, int K) const { return (I * N + J) * N + K; }
  int first(int Partition) const {
    return (int)((long)N * N * N * Partition / kPartitions);
  }
};

void buildMaterial(double *Table) {
  for (int M = 0; M < kMaterials; ++M)
    Table[M] = 40.0 + 20.0 * sin(M * 0.37) + M * 0.5;
}

int materialOf(int Node) { return (Node * 2654435761u) >> 26; }

// Springs to the six lattice neighbours, to their rest length, plus a muscle
// pulling the front layers in a slow rhythm.
void forcesTask(Mesh &M, int Partition) {
  for (int Node = M.first(Partition); Node < M.first(Partition + 1); ++Node) {
    int I = Node / (M.N * M.N), J = Node / M.N % M.N, K = Node % M.N;
    Vec3 F = {0, -0.5, 0};
    const int D[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                         {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    for (const auto &Off : D) {
      int I2 = I + Off[0], J2 = J + Off[1], K2 = K + Off[2];
      if (I2 < 0 || J2 < 0 || K2 < 0 || I2 >= M.N || J2 >= M.N || K2 >= M.N)
        continue;
      int Other = M.index(I2, J2, K2);
      Vec3 Delta = M.X[Other] - M.X[Node];
      double Length = sqrt(dot(Delta, Delta));
      double RestLength = sqrt(dot(M.Rest[Other] - M.Rest[Node],
                                   M.Rest[Other] - M.Rest[Node]));
      double Stiffness = M.Material[materialOf(Node)];
      F = F + (Stiffness * (Length - RestLength) / Length) * Delta;
    }
    if (K >= M.N - 2)
      F.Z -= 3.0 * sin(M.Time * 4.0 + J * 0.2) * sin(M.Time * 3.0 + I * 0.3);
    // Pinned at the back.
    M.Force[Node] = K == 0 ? Vec3{0, 0, 0} : F;
  }
}

// The system matrix A = M + dt^2 L, with L the lattice graph Laplacian times
// a nominal stiffness: Q = A P.
void matvecTask(Mesh &M, int Partition) {
  const double Coupling = kDt * kDt * 50.0;
  double PQ = 0.0;
  for (int Node = M.first(Partition); Node < M.first(Partition + 1); ++Node) {
    int I = Node / (M.N * M.N), J = Node / M.N % M.N, K = Node % M.N;
    Vec3 Sum = {0, 0, 0};
    int Degree = 0;
    if (I > 0) Sum = Sum + M.P[Node - M.N * M.N], Degree++;
    if (I + 1 < M.N) Sum = Sum + M.P[Node + M.N * M.N], Degree++;
    if (J > 0) Sum = Sum + M.P[Node - M.N], Degree++;
    if (J + 1 < M.N) Sum = Sum + M.P[Node + M.N], Degree++;
    if (K > 0) Sum = Sum + M.P[Node - 1], Degree++;
    if (K + 1 < M.N) Sum = Sum + M.P[Node + 1], Degree++;
    Vec3 Q = (kMass + Coupling * Degree) * M.P[Node] - Coupling * Sum;
    M.Q[Node] = K == 0 ? M.P[Node] : Q;
    PQ += dot(M.P[Node], M.Q[Node]);
  }
  M.Partial[Partition] = PQ;
}

void updateTask(Mesh &M, int Partition) {
  double RR = 0.0;
  for (int Node = M.first(Partition); Node < M.first(Partition + 1); ++Node) {
    M.Dv[Node] = M.Dv[Node] + M.Alpha * M.P[Node];
    M.R[Node] = M.R[Node] - M.Alpha * M.Q[Node];
    RR += dot(M.R[Node], M.R[Node]);
  }
  M.Partial[Partition] = RR;
}

void directionTask(Mesh &M, int Partition) {
  for (int Node = M.first(Partition); Node < M.first(Partition + 1); ++Node)
    M.P[Node] = M.R[Node] + M.Beta * M.P[Node];
}

// Right-hand side dt F; the solve starts from Dv = 0, so R = P = dt F.
void startTask(Mesh &M, int Partition) {
  double RR = 0.0;
  for (int Node = M.first(Partition); Node < M.first(Partition + 1); ++Node) {
    M.Dv[Node] = {0, 0, 0};
    M.R[Node] = M.P[Node] = kDt * M.Force[Node];
    RR += dot(M.R[Node], M.R[Node]);
  }
  M.Partial[Partition] = RR;
}

void integrateTask(Mesh &M, int Partition) {
  for (int Node = M.first(Partition); Node < M.first(Partition + 1); ++Node) {
    M.V[Node] = 0.995 * (M.V[Node] + (1.0 / kMass) * M.Dv[Node]);
    M.X[Node] = M.X[Node] + kDt * M.V[Node];
  }
}

void worker(void *Arg, int) {
  Mesh &M = *static_cast<Mesh *>(Arg);
  if (M.Race && !M.MaterialReady) {
    buildMaterial(M.Material);
    M.MaterialReady = 1;
  }
  pthread_mutex_lock(&M.Lock);
  for (;;) {
    while (M.Tasks.empty() && !M.Exit)
      pthread_cond_wait(&M.TaskReady, &M.Lock);
    if (M.Tasks.empty())
      break;
    int Partition = M.Tasks.back();
    M.Tasks.pop_back();
    TaskFn Fn = M.Current;
    pthread_mutex_unlock(&M.Lock);
    Fn(M, Partition);
    pthread_mutex_lock(&M.Lock);
    if (--M.Pending == 0)
      pthread_cond_signal(&M.AllDone);
  }
  pthread_mutex_unlock(&M.Lock);
}

// Runs one phase: a task per partition; returns the sum of the partials.
double runPhase(Mesh &M, TaskFn Fn) {
  pthread_mutex_lock(&M.Lock);
  M.Current = Fn;
  for (int P = kPartitions - 1; P >= 0; --P)
    M.Tasks.push_back(P);
  M.Pending = kPartitions;
  pthread_cond_broadcast(&M.TaskReady);
  while (M.Pending)
    pthread_cond_wait(&M.AllDone, &M.Lock);
  pthread_mutex_unlock(&M.Lock);
  double Sum = 0.0;
  for (double Part : M.Partial)
    Sum += Part;
  return Sum;
}

void step(Mesh &M) {
  runPhase(M, forcesTask);
  double RR = runPhase(M, startTask);
  for (int It = 0; It < kCgIterations && RR > 1e-30; ++It) {
    double PQ = runPhase(M, matvecTask);
    M.Alpha = RR / PQ;
    double Next = runPhase(M, updateTask);
    M.Beta = Next / RR;
    RR = Next;
    runPhase(M, directionTask);
  }
  runPhase(M, integrateTask);
  M.Time += kDt;
}

} // namespace

int main(int Argc, char **Argv) {
  BenchArgs A = benchParseArgs(Argc, Argv);
  Mesh M;
  M.N = (int)benchPick(&A, 12, 40, 40);
  int Steps = (int)benchPick(&A, 4, 220, 900);
  M.Race = A.Race;
  size_t Nodes = (size_t)M.N * M.N * M.N;
  for (auto *Vec : {&M.Rest, &M.X, &M.V, &M.Force, &M.Dv, &M.R, &M.P, &M.Q})
    Vec->assign(Nodes, Vec3{0, 0, 0});
  for (int I = 0; I < M.N; ++I)
    for (int J = 0; J < M.N; ++J)
      for (int K = 0; K < M.N; ++K)
        M.Rest[M.index(I, J, K)] = M.X[M.index(I, J, K)] = {
            (double)I, (double)J, (double)K};
  if (!A.Race)
    buildMaterial(M.Material);
  pthread_mutex_init(&M.Lock, nullptr);
  pthread_cond_init(&M.TaskReady, nullptr);
  pthread_cond_init(&M.AllDone, nullptr);

  double Start = benchNow();
  BenchTeam Workers = benchTeamStart(A.Threads, worker, &M);
  for (int S = 0; S < Steps; ++S)
    step(M);
  pthread_mutex_lock(&M.Lock);
  M.Exit = true;
  pthread_cond_broadcast(&M.TaskReady);
  pthread_mutex_unlock(&M.Lock);
  benchTeamJoin(&Workers);

  uint64_t H = BENCH_CHECKSUM_INIT;
  for (const Vec3 &P : M.X) {
    H = benchHashDouble(H, P.X);
    H = benchHashDouble(H, P.Y);
    H = benchHashDouble(H, P.Z);
  }
  benchReport("facesim", H, Start);
  pthread_cond_destroy(&M.AllDone);
  pthread_cond_destroy(&M.TaskReady);
  pthread_mutex_destroy(&M.Lock);
  return 0;
}
