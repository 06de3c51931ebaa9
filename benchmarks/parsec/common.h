//===-- common.h - Shared helpers of the PARSEC-like workloads ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every workload takes the same command line:
//
//   NAME [-i tiny|small|medium] [-t THREADS] [-r]
//
//   -i  input size: tiny (milliseconds, for `make check`), small (about 1 s
//       natively with 2 threads) or medium (5 to 10 s); default small
//   -t  worker threads (default 2); pipelines start this many per stage
//   -r  inject the workload's one known data race (see its header comment)
//
// and prints one line on stdout:
//
//   NAME: checksum 0123456789abcdef roi 0.812 s
//
// The checksum depends on the input only: not on the thread count, the
// schedule or the tool, so run.py compares it across builds. It may differ
// with -r, since the race can lose updates. `roi` is the wall time of the
// parallel part (input generation excluded), as PARSEC measures it.
//
// Header-only and valid C and C++, so .c and .cpp workloads share it.
//
//===----------------------------------------------------------------------===//
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum BenchSize { kTiny, kSmall, kMedium };

struct BenchArgs {
  enum BenchSize Size;
  int Threads;
  int Race;
};

static inline void benchUsage(const char *Name) {
  fprintf(stderr, "usage: %s [-i tiny|small|medium] [-t THREADS] [-r]\n",
          Name);
  exit(2);
}

static inline struct BenchArgs benchParseArgs(int Argc, char **Argv) {
  struct BenchArgs A = {kSmall, 2, 0};
  for (int I = 1; I < Argc; ++I) {
    const char *Opt = Argv[I];
    if (!strcmp(Opt, "-r")) {
      A.Race = 1;
    } else if (!strcmp(Opt, "-i") && I + 1 < Argc) {
      const char *V = Argv[++I];
      if (!strcmp(V, "tiny"))
        A.Size = kTiny;
      else if (!strcmp(V, "small"))
        A.Size = kSmall;
      else if (!strcmp(V, "medium"))
        A.Size = kMedium;
      else
        benchUsage(Argv[0]);
    } else if (!strcmp(Opt, "-t") && I + 1 < Argc) {
      A.Threads = atoi(Argv[++I]);
      if (A.Threads < 1 || A.Threads > 64)
        benchUsage(Argv[0]);
    } else {
      benchUsage(Argv[0]);
    }
  }
  return A;
}

// The parameter of the chosen input size.
static inline long benchPick(const struct BenchArgs *A, long Tiny, long Small,
                             long Medium) {
  return A->Size == kTiny ? Tiny : A->Size == kSmall ? Small : Medium;
}

static inline void *benchAlloc(size_t Bytes) {
  void *P = calloc(1, Bytes ? Bytes : 1);
  if (!P) {
    fprintf(stderr, "out of memory (%zu bytes)\n", Bytes);
    exit(1);
  }
  return P;
}

// splitmix64: a deterministic, seedable generator; one per thread or per
// work item, never shared (except where -r shares one on purpose).
struct BenchRng {
  uint64_t State;
};

static inline struct BenchRng benchRngMake(uint64_t Seed) {
  struct BenchRng R = {Seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull};
  return R;
}

static inline uint64_t benchRngNext(struct BenchRng *R) {
  uint64_t Z = (R->State += 0x9e3779b97f4a7c15ull);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

// Uniform in [0, 1).
static inline double benchRngDouble(struct BenchRng *R) {
  return (double)(benchRngNext(R) >> 11) * (1.0 / 9007199254740992.0);
}

// Uniform in [0, N).
static inline uint32_t benchRngBelow(struct BenchRng *R, uint32_t N) {
  return (uint32_t)(((benchRngNext(R) >> 32) * N) >> 32);
}

// FNV-1a over 64-bit words.
#define BENCH_CHECKSUM_INIT 0xcbf29ce484222325ull

static inline uint64_t benchHashU64(uint64_t H, uint64_t V) {
  for (int I = 0; I < 8; ++I) {
    H ^= (V >> (8 * I)) & 0xff;
    H *= 0x100000001b3ull;
  }
  return H;
}

static inline uint64_t benchHashBytes(uint64_t H, const void *Data,
                                      size_t Len) {
  const unsigned char *P = (const unsigned char *)Data;
  for (size_t I = 0; I < Len; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull;
  }
  return H;
}

// A double rounded to 1e-6 relative precision, so that a result is hashed
// by value, not by its last bits.
static inline uint64_t benchHashDouble(uint64_t H, double V) {
  int Exp;
  double Mantissa = frexp(V, &Exp);
  return benchHashU64(benchHashU64(H, (uint64_t)llround(Mantissa * 1e6)),
                      (uint64_t)(int64_t)Exp);
}

static inline double benchNow(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (double)T.tv_sec + 1e-9 * (double)T.tv_nsec;
}

static inline void benchReport(const char *Name, uint64_t Checksum,
                               double RoiStart) {
  printf("%s: checksum %016llx roi %.3f s\n", Name,
         (unsigned long long)Checksum, benchNow() - RoiStart);
}

// N threads running Fn(Arg, Index), Index in [0, N). benchParallel starts
// and joins them; pipelines start their stages, feed the first queue from
// the main thread, then join.
struct BenchThreadStart {
  void (*Fn)(void *, int);
  void *Arg;
  int Index;
};

struct BenchTeam {
  int N;
  pthread_t *Threads;
  struct BenchThreadStart *Starts;
};

static inline void *benchThreadMain(void *P) {
  struct BenchThreadStart *S = (struct BenchThreadStart *)P;
  S->Fn(S->Arg, S->Index);
  return NULL;
}

static inline struct BenchTeam benchTeamStart(int N, void (*Fn)(void *, int),
                                              void *Arg) {
  struct BenchTeam T = {
      N, (pthread_t *)benchAlloc(sizeof(pthread_t) * N),
      (struct BenchThreadStart *)benchAlloc(sizeof(struct BenchThreadStart) *
                                            N)};
  for (int I = 0; I < N; ++I) {
    T.Starts[I].Fn = Fn;
    T.Starts[I].Arg = Arg;
    T.Starts[I].Index = I;
    if (pthread_create(&T.Threads[I], NULL, benchThreadMain, &T.Starts[I])) {
      fprintf(stderr, "pthread_create failed\n");
      exit(1);
    }
  }
  return T;
}

static inline void benchTeamJoin(struct BenchTeam *T) {
  for (int I = 0; I < T->N; ++I)
    pthread_join(T->Threads[I], NULL);
  free(T->Starts);
  free(T->Threads);
}

static inline void benchParallel(int N, void (*Fn)(void *, int), void *Arg) {
  struct BenchTeam T = benchTeamStart(N, Fn, Arg);
  benchTeamJoin(&T);
}

// A bounded FIFO of pointers on a mutex and two condition variables: the
// queue between the stages of dedup and ferret and the work queue of vips.
// Pop returns NULL once the queue is closed and drained.
struct BenchQueue {
  pthread_mutex_t Lock;
  pthread_cond_t NotEmpty;
  pthread_cond_t NotFull;
  void **Items;
  int Capacity;
  int Head;
  int Count;
  int Producers; // Producers still open; the queue closes at 0.
};

static inline void benchQueueInit(struct BenchQueue *Q, int Capacity,
                                  int Producers) {
  pthread_mutex_init(&Q->Lock, NULL);
  pthread_cond_init(&Q->NotEmpty, NULL);
  pthread_cond_init(&Q->NotFull, NULL);
  Q->Items = (void **)benchAlloc(sizeof(void *) * Capacity);
  Q->Capacity = Capacity;
  Q->Head = 0;
  Q->Count = 0;
  Q->Producers = Producers;
}

static inline void benchQueueDestroy(struct BenchQueue *Q) {
  pthread_mutex_destroy(&Q->Lock);
  pthread_cond_destroy(&Q->NotEmpty);
  pthread_cond_destroy(&Q->NotFull);
  free(Q->Items);
}

static inline void benchQueuePush(struct BenchQueue *Q, void *Item) {
  pthread_mutex_lock(&Q->Lock);
  while (Q->Count == Q->Capacity)
    pthread_cond_wait(&Q->NotFull, &Q->Lock);
  Q->Items[(Q->Head + Q->Count) % Q->Capacity] = Item;
  Q->Count++;
  pthread_cond_signal(&Q->NotEmpty);
  pthread_mutex_unlock(&Q->Lock);
}

static inline void *benchQueuePop(struct BenchQueue *Q) {
  pthread_mutex_lock(&Q->Lock);
  while (Q->Count == 0 && Q->Producers > 0)
    pthread_cond_wait(&Q->NotEmpty, &Q->Lock);
  void *Item = NULL;
  if (Q->Count > 0) {
    Item = Q->Items[Q->Head];
    Q->Head = (Q->Head + 1) % Q->Capacity;
    Q->Count--;
    pthread_cond_signal(&Q->NotFull);
  }
  pthread_mutex_unlock(&Q->Lock);
  return Item;
}

// One producer is done; the last one closes the queue.
static inline void benchQueueClose(struct BenchQueue *Q) {
  pthread_mutex_lock(&Q->Lock);
  if (--Q->Producers == 0)
    pthread_cond_broadcast(&Q->NotEmpty);
  pthread_mutex_unlock(&Q->Lock);
}

#endif // BENCH_COMMON_H
