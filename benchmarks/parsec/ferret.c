//===-- ferret.c - Six-stage similarity search pipeline -------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's ferret: content-based image similarity search. Each query image
// goes through six stages joined by bounded queues on a mutex and two
// condition variables (common.h); the four middle stages have T threads
// each:
//
//   load     (1)  generates the query image
//   segment  (T)  k-means on intensity and position: regions
//   extract  (T)  a feature vector per region
//   index    (T)  locality-sensitive hashing: candidate database images
//   rank     (T)  region-set distance to every candidate, top ten kept
//   out      (1)  stores the result of each query
//
// The database and its LSH tables are built before the pipeline starts and
// only read by it.
//
// -r: the rank threads add their count of distance evaluations to the shared
// total as they exit, without the lock. Nothing follows their last
// synchronisation, so the two additions are unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

enum {
  kSide = 48,        // Query images are kSide x kSide.
  kRegions = 8,      // Segments per image, and regions per database entry.
  kFeatures = 14,    // Dimensions of a region's feature vector.
  kTables = 6,       // LSH tables,
  kPlanes = 8,       // each hashing with this many random hyperplanes.
  kTop = 10,         // Results per query.
  kKMeansRounds = 6,
  kQueueDepth = 16,
};

struct Query {
  int Id;
  unsigned char Pixels[kSide * kSide];
  unsigned char Label[kSide * kSide];
  float Feature[kRegions][kFeatures];
  float Weight[kRegions];
  int *Candidates;
  int NumCandidates;
  int Top[kTop];
  float TopDistance[kTop];
};

struct Ferret {
  int Queries, Entries, Threads, Race;
  float *Database;             // Entries x kRegions x kFeatures.
  float Planes[kTables][kPlanes][kFeatures];
  int *BucketStart[kTables];   // 2^kPlanes + 1 offsets into BucketItems.
  int *BucketItems[kTables];
  struct BenchQueue Q[5];      // Between the six stages.
  struct Query **Results;      // Written by the out stage.
  pthread_mutex_t StatsLock;
  long DistanceEvals;          // Guarded by StatsLock (except with -r).
};

static void loadStage(struct Ferret *F) {
  for (int I = 0; I < F->Queries; ++I) {
    struct Query *Q = (struct Query *)benchAlloc(sizeof(struct Query));
    Q->Id = I;
    struct BenchRng R = benchRngMake(100000 + (uint64_t)I);
    // A few bright blobs on a noisy background.
    for (int P = 0; P < kSide * kSide; ++P)
      Q->Pixels[P] = (unsigned char)benchRngBelow(&R, 40);
    for (int B = 0; B < 5; ++B) {
      int CX = (int)benchRngBelow(&R, kSide), CY = (int)benchRngBelow(&R, kSide);
      int Radius = 4 + (int)benchRngBelow(&R, 10);
      int Level = 80 + (int)benchRngBelow(&R, 170);
      for (int Y = 0; Y < kSide; ++Y)
        for (int X = 0; X < kSide; ++X)
          if ((X - CX) * (X - CX) + (Y - CY) * (Y - CY) < Radius * Radius)
            Q->Pixels[Y * kSide + X] = (unsigned char)Level;
    }
    benchQueuePush(&F->Q[0], Q);
  }
  benchQueueClose(&F->Q[0]);
}

// k-means over (intensity, x, y), seeded on a fixed grid.
static void segment(struct Query *Q) {
  float Center[kRegions][3];
  for (int K = 0; K < kRegions; ++K) {
    int P = (K * 7919) % (kSide * kSide);
    Center[K][0] = Q->Pixels[P];
    Center[K][1] = (float)(P % kSide);
    Center[K][2] = (float)(P / kSide);
  }
  for (int Round = 0; Round < kKMeansRounds; ++Round) {
    float Sum[kRegions][3] = {{0}};
    int Count[kRegions] = {0};
    for (int P = 0; P < kSide * kSide; ++P) {
      float V[3] = {Q->Pixels[P], (float)(P % kSide), (float)(P / kSide)};
      int Best = 0;
      float BestD = 1e30f;
      for (int K = 0; K < kRegions; ++K) {
        float D = 0.0f;
        for (int J = 0; J < 3; ++J)
          D += (V[J] - Center[K][J]) * (V[J] - Center[K][J]) * (J ? 1.0f : 4.0f);
        if (D < BestD) {
          BestD = D;
          Best = K;
        }
      }
      Q->Label[P] = (unsigned char)Best;
      Count[Best]++;
      for (int J = 0; J < 3; ++J)
        Sum[Best][J] += V[J];
    }
    for (int K = 0; K < kRegions; ++K)
      if (Count[K])
        for (int J = 0; J < 3; ++J)
          Center[K][J] = Sum[K][J] / Count[K];
  }
}

// Per region: size, mean and spread of intensity, centroid, extent, and a
// histogram of gradient directions.
static void extract(struct Query *Q) {
  double Acc[kRegions][kFeatures] = {{0}};
  for (int Y = 1; Y < kSide - 1; ++Y)
    for (int X = 1; X < kSide - 1; ++X) {
      int P = Y * kSide + X, K = Q->Label[P];
      double V = Q->Pixels[P];
      double GX = Q->Pixels[P + 1] - Q->Pixels[P - 1];
      double GY = Q->Pixels[P + kSide] - Q->Pixels[P - kSide];
      double *A = Acc[K];
      A[0] += 1;
      A[1] += V;
      A[2] += V * V;
      A[3] += X;
      A[4] += Y;
      A[5] += X * X + Y * Y;
      int Bin = (GX >= 0) + 2 * (GY >= 0) + 4 * (fabs(GX) > fabs(GY));
      A[6 + Bin] += sqrt(GX * GX + GY * GY);
    }
  for (int K = 0; K < kRegions; ++K) {
    double N = Acc[K][0] > 0 ? Acc[K][0] : 1;
    Q->Weight[K] = (float)(Acc[K][0] / ((kSide - 2) * (kSide - 2)));
    Q->Feature[K][0] = (float)(Acc[K][0] / 100.0);
    Q->Feature[K][1] = (float)(Acc[K][1] / N / 25.0);
    Q->Feature[K][2] = (float)(sqrt(fabs(Acc[K][2] / N - (Acc[K][1] / N) *
                                    (Acc[K][1] / N))) / 25.0);
    for (int J = 3; J < kFeatures; ++J)
      Q->Feature[K][J] = (float)(Acc[K][J] / N / (J < 6 ? 10.0 : 50.0));
  }
}

static int lshKey(const struct Ferret *F, int Table, const float *V) {
  int Key = 0;
  for (int P = 0; P < kPlanes; ++P) {
    float Dot = 0.0f;
    for (int J = 0; J < kFeatures; ++J)
      Dot += F->Planes[Table][P][J] * V[J];
    Key = Key << 1 | (Dot > 0.0f);
  }
  return Key;
}

static void findCandidates(const struct Ferret *F, struct Query *Q,
                   unsigned char *Seen) {
  memset(Seen, 0, (size_t)F->Entries);
  Q->Candidates = (int *)benchAlloc(sizeof(int) * F->Entries);
  for (int K = 0; K < kRegions; ++K)
    for (int T = 0; T < kTables; ++T) {
      int Key = lshKey(F, T, Q->Feature[K]);
      for (int I = F->BucketStart[T][Key]; I < F->BucketStart[T][Key + 1];
           ++I) {
        int E = F->BucketItems[T][I];
        if (!Seen[E]) {
          Seen[E] = 1;
          Q->Candidates[Q->NumCandidates++] = E;
        }
      }
    }
}

// Region-set distance: every query region, weighted, to its closest region
// of the candidate.
static float setDistance(const struct Query *Q, const float *Entry) {
  float Total = 0.0f;
  for (int K = 0; K < kRegions; ++K) {
    float Best = 1e30f;
    for (int R = 0; R < kRegions; ++R) {
      float D = 0.0f;
      for (int J = 0; J < kFeatures; ++J) {
        float Diff = Q->Feature[K][J] - Entry[R * kFeatures + J];
        D += Diff * Diff;
      }
      Best = D < Best ? D : Best;
    }
    Total += Q->Weight[K] * Best;
  }
  return Total;
}

static long rank(const struct Ferret *F, struct Query *Q) {
  for (int I = 0; I < kTop; ++I) {
    Q->Top[I] = -1;
    Q->TopDistance[I] = 1e30f;
  }
  for (int C = 0; C < Q->NumCandidates; ++C) {
    int E = Q->Candidates[C];
    float D = setDistance(Q, &F->Database[(size_t)E * kRegions * kFeatures]);
    // Ties go to the lower entry, so the result is independent of order.
    int At = kTop;
    while (At > 0 && (D < Q->TopDistance[At - 1] ||
                      (D == Q->TopDistance[At - 1] && E < Q->Top[At - 1])))
      At--;
    if (At == kTop)
      continue;
    for (int I = kTop - 1; I > At; --I) {
      Q->Top[I] = Q->Top[I - 1];
      Q->TopDistance[I] = Q->TopDistance[I - 1];
    }
    Q->Top[At] = E;
    Q->TopDistance[At] = D;
  }
  free(Q->Candidates);
  return Q->NumCandidates;
}

// Stage threads: 0 load, then T per middle stage, last out.
static void stage(void *Arg, int Index) {
  struct Ferret *F = (struct Ferret *)Arg;
  if (Index == 0) {
    loadStage(F);
    return;
  }
  int Kind = Index == 4 * F->Threads + 1 ? 5 : 1 + (Index - 1) / F->Threads;
  if (Kind == 5) {
    struct Query *Q;
    while ((Q = (struct Query *)benchQueuePop(&F->Q[4])))
      F->Results[Q->Id] = Q;
    return;
  }
  struct BenchQueue *In = &F->Q[Kind - 1], *Out = &F->Q[Kind];
  unsigned char *Seen = Kind == 3 ? (unsigned char *)benchAlloc(F->Entries)
                                  : NULL;
  long Evals = 0;
  struct Query *Q;
  while ((Q = (struct Query *)benchQueuePop(In))) {
    if (Kind == 1)
      segment(Q);
    else if (Kind == 2)
      extract(Q);
    else if (Kind == 3)
      findCandidates(F, Q, Seen);
    else
      Evals += rank(F, Q);
    benchQueuePush(Out, Q);
  }
  free(Seen);
  benchQueueClose(Out);
  if (Kind == 4) {
    if (F->Race) {
      F->DistanceEvals += Evals;
    } else {
      pthread_mutex_lock(&F->StatsLock);
      F->DistanceEvals += Evals;
      pthread_mutex_unlock(&F->StatsLock);
    }
  }
}

// Database entries look like segmented query images: random regions around
// a few prototypes, so that LSH buckets are uneven as in real data.
static void buildDatabase(struct Ferret *F) {
  struct BenchRng R = benchRngMake(10);
  float Proto[16][kFeatures];
  for (int P = 0; P < 16; ++P)
    for (int J = 0; J < kFeatures; ++J)
      Proto[P][J] = (float)benchRngDouble(&R) * 4.0f;
  F->Database = (float *)benchAlloc(sizeof(float) * F->Entries * kRegions *
                                    kFeatures);
  for (int E = 0; E < F->Entries; ++E)
    for (int K = 0; K < kRegions; ++K) {
      const float *P = Proto[benchRngBelow(&R, 16)];
      for (int J = 0; J < kFeatures; ++J)
        F->Database[((size_t)E * kRegions + K) * kFeatures + J] =
            P[J] + (float)(benchRngDouble(&R) - 0.5);
    }
  for (int T = 0; T < kTables; ++T)
    for (int P = 0; P < kPlanes; ++P)
      for (int J = 0; J < kFeatures; ++J)
        F->Planes[T][P][J] = (float)(benchRngDouble(&R) - 0.5);
  // Each entry goes in one bucket per table, keyed by its first region.
  int Buckets = 1 << kPlanes;
  int *Keys = (int *)benchAlloc(sizeof(int) * F->Entries);
  for (int T = 0; T < kTables; ++T) {
    F->BucketStart[T] = (int *)benchAlloc(sizeof(int) * (Buckets + 1));
    F->BucketItems[T] = (int *)benchAlloc(sizeof(int) * F->Entries);
    for (int E = 0; E < F->Entries; ++E) {
      Keys[E] = lshKey(F, T, &F->Database[(size_t)E * kRegions * kFeatures +
                                          (E % kRegions) * kFeatures]);
      F->BucketStart[T][Keys[E] + 1]++;
    }
    for (int B = 0; B < Buckets; ++B)
      F->BucketStart[T][B + 1] += F->BucketStart[T][B];
    int *Fill = (int *)benchAlloc(sizeof(int) * Buckets);
    for (int E = 0; E < F->Entries; ++E)
      F->BucketItems[T][F->BucketStart[T][Keys[E]] + Fill[Keys[E]]++] = E;
    free(Fill);
  }
  free(Keys);
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  struct Ferret *F = (struct Ferret *)benchAlloc(sizeof(struct Ferret));
  F->Queries = (int)benchPick(&A, 24, 1500, 9000);
  F->Entries = (int)benchPick(&A, 2000, 20000, 20000);
  F->Threads = A.Threads;
  F->Race = A.Race;
  buildDatabase(F);
  F->Results =
      (struct Query **)benchAlloc(sizeof(struct Query *) * F->Queries);
  pthread_mutex_init(&F->StatsLock, NULL);
  benchQueueInit(&F->Q[0], kQueueDepth, 1);
  for (int S = 1; S < 5; ++S)
    benchQueueInit(&F->Q[S], kQueueDepth, A.Threads);

  double Start = benchNow();
  benchParallel(4 * A.Threads + 2, stage, F);

  uint64_t H = BENCH_CHECKSUM_INIT;
  for (int I = 0; I < F->Queries; ++I) {
    for (int K = 0; K < kTop; ++K) {
      H = benchHashU64(H, (uint64_t)(int64_t)F->Results[I]->Top[K]);
      H = benchHashDouble(H, F->Results[I]->TopDistance[K]);
    }
    free(F->Results[I]);
  }
  benchReport("ferret", H, Start);
  printf("ferret: %ld distance evaluations\n", F->DistanceEvals);
  for (int S = 0; S < 5; ++S)
    benchQueueDestroy(&F->Q[S]);
  pthread_mutex_destroy(&F->StatsLock);
  for (int T = 0; T < kTables; ++T) {
    free(F->BucketStart[T]);
    free(F->BucketItems[T]);
  }
  free(F->Results);
  free(F->Database);
  free(F);
  return 0;
}
