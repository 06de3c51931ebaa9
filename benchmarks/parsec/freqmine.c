//===-- freqmine.c - FP-growth on a shared tree built under locks ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's freqmine: frequent itemset mining with FP-growth. Three phases,
// separated by barriers, on persistent threads:
//
//   1. count item frequencies over a slice of the transactions; merge into
//      the global counts under a lock
//   -- barrier -- thread 0 ranks the frequent items -- barrier --
//   2. insert the slice's transactions into one shared FP-tree: every step
//      down the tree locks the node whose children it searches or extends,
//      a new node is also linked into its item's header list under that
//      item's lock
//   -- barrier --
//   3. take items from a ticket counter under a mutex and mine each one's
//      conditional trees, privately
//
// (PARSEC's freqmine is OpenMP; the threads and locks here are pthreads.)
// The frequent itemsets, and so the checksum, do not depend on the schedule.
//
// -r: the threads add their itemset counts to the global ones as they
// finish, without the lock. Nothing follows their last synchronisation, so
// the additions are unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

enum { kMaxLength = 32 }; // Longest itemset counted by length.

struct Node {
  int Item; // Rank of the item; -1 at the root.
  long Count;
  struct Node *Parent, *FirstChild, *NextSibling;
  struct Node *NextSame; // The item's header list.
  pthread_mutex_t Lock;  // Guards Count of the children and the child list.
};

struct Miner {
  int Transactions, Items, Threads, Race;
  long MinSupport;
  const int *Offsets; // Transaction T is Data[Offsets[T] .. Offsets[T+1]).
  const int *Data;
  long *Frequency; // Per item, guarded by CountLock.
  pthread_mutex_t CountLock;
  int *RankOf;     // Item -> rank, -1 if infrequent.
  int Frequent;    // Items with a rank.
  struct Node Root;
  struct Node **Header; // Per rank.
  pthread_mutex_t *HeaderLock;
  pthread_mutex_t TicketLock;
  int NextRank; // Guarded by TicketLock.
  pthread_mutex_t StatsLock;
  long Found[kMaxLength + 1]; // Itemsets per length, guarded by StatsLock.
  long SupportSum;            // Guarded by StatsLock.
  pthread_barrier_t Barrier;
};

// A private conditional FP-tree: nodes in an array, children by index.
struct CNode {
  int Item, Parent, FirstChild, NextSibling, NextSame;
  long Count;
};

struct CTree {
  struct CNode *Nodes;
  int Size, Capacity;
  int Ranks;   // Items of rank below this may occur.
  int *Head;   // Per rank, first node of the item, -1 if none.
  long *Total; // Per rank, support in this tree.
};

struct Stats {
  long Found[kMaxLength + 1];
  long SupportSum;
};

static void ctreeInit(struct CTree *T, int Ranks) {
  T->Capacity = 64;
  T->Nodes = (struct CNode *)benchAlloc(sizeof(struct CNode) * T->Capacity);
  T->Size = 1;
  T->Nodes[0].Item = -1;
  T->Nodes[0].FirstChild = -1;
  T->Ranks = Ranks;
  T->Head = (int *)benchAlloc(sizeof(int) * Ranks);
  T->Total = (long *)benchAlloc(sizeof(long) * Ranks);
  for (int R = 0; R < Ranks; ++R)
    T->Head[R] = -1;
}

static void ctreeFree(struct CTree *T) {
  free(T->Total);
  free(T->Head);
  free(T->Nodes);
}

// Adds Count to the path Items[0..N) (ranks, increasing) from the root.
static void ctreeInsert(struct CTree *T, const int *Items, int N, long Count) {
  int At = 0;
  for (int I = 0; I < N; ++I) {
    int Child = T->Nodes[At].FirstChild;
    while (Child >= 0 && T->Nodes[Child].Item != Items[I])
      Child = T->Nodes[Child].NextSibling;
    if (Child < 0) {
      if (T->Size == T->Capacity) {
        T->Capacity *= 2;
        T->Nodes = (struct CNode *)realloc(
            T->Nodes, sizeof(struct CNode) * T->Capacity);
      }
      Child = T->Size++;
      struct CNode *C = &T->Nodes[Child];
      C->Item = Items[I];
      C->Parent = At;
      C->FirstChild = -1;
      C->Count = 0;
      C->NextSibling = T->Nodes[At].FirstChild;
      T->Nodes[At].FirstChild = Child;
      C->NextSame = T->Head[Items[I]];
      T->Head[Items[I]] = Child;
    }
    T->Nodes[Child].Count += Count;
    T->Total[Items[I]] += Count;
    At = Child;
  }
}

// FP-growth: every frequent extension of the current suffix by one item of
// this tree, then the extensions of that, in its conditional tree.
static void mine(const struct Miner *M, const struct CTree *T, int Depth,
                 int *Path, struct Stats *S) {
  for (int R = T->Ranks - 1; R >= 0; --R) {
    if (T->Total[R] < M->MinSupport)
      continue;
    int Length = Depth + 1 < kMaxLength ? Depth + 1 : kMaxLength;
    S->Found[Length]++;
    S->SupportSum += T->Total[R];
    struct CTree Cond;
    ctreeInit(&Cond, R);
    // Prefix paths of R, keeping items frequent in them.
    long *Local = (long *)benchAlloc(sizeof(long) * (R + 1));
    for (int N = T->Head[R]; N >= 0; N = T->Nodes[N].NextSame)
      for (int P = T->Nodes[N].Parent; P > 0; P = T->Nodes[P].Parent)
        Local[T->Nodes[P].Item] += T->Nodes[N].Count;
    for (int N = T->Head[R]; N >= 0; N = T->Nodes[N].NextSame) {
      int Len = 0;
      for (int P = T->Nodes[N].Parent; P > 0; P = T->Nodes[P].Parent)
        if (Local[T->Nodes[P].Item] >= M->MinSupport)
          Path[Len++] = T->Nodes[P].Item;
      // Collected leaf to root: reverse to increasing rank.
      for (int A = 0, B = Len - 1; A < B; ++A, --B) {
        int Swap = Path[A];
        Path[A] = Path[B];
        Path[B] = Swap;
      }
      ctreeInsert(&Cond, Path, Len, T->Nodes[N].Count);
    }
    free(Local);
    if (Cond.Size > 1 && Depth + 1 < kMaxLength)
      mine(M, &Cond, Depth + 1, Path + M->Frequent, S);
    ctreeFree(&Cond);
  }
}

static void countPhase(struct Miner *M, int Begin, int End) {
  long *Local = (long *)benchAlloc(sizeof(long) * M->Items);
  for (int I = M->Offsets[Begin]; I < M->Offsets[End]; ++I)
    Local[M->Data[I]]++;
  pthread_mutex_lock(&M->CountLock);
  for (int I = 0; I < M->Items; ++I)
    M->Frequency[I] += Local[I];
  pthread_mutex_unlock(&M->CountLock);
  free(Local);
}

// Thread 0: frequent items ranked by decreasing frequency, ties by item.
static void rankItems(struct Miner *M) {
  M->Frequent = 0;
  for (int I = 0; I < M->Items; ++I)
    M->RankOf[I] = -1;
  for (;;) {
    int Best = -1;
    for (int I = 0; I < M->Items; ++I)
      if (M->RankOf[I] < 0 && M->Frequency[I] >= M->MinSupport &&
          (Best < 0 || M->Frequency[I] > M->Frequency[Best]))
        Best = I;
    if (Best < 0)
      break;
    M->RankOf[Best] = M->Frequent++;
  }
  M->Header = (struct Node **)benchAlloc(sizeof(struct Node *) * M->Frequent);
  M->HeaderLock =
      (pthread_mutex_t *)benchAlloc(sizeof(pthread_mutex_t) * M->Frequent);
  for (int R = 0; R < M->Frequent; ++R)
    pthread_mutex_init(&M->HeaderLock[R], NULL);
}

static int compareInts(const void *A, const void *B) {
  return *(const int *)A - *(const int *)B;
}

static void insertPhase(struct Miner *M, int Begin, int End) {
  int *Ranks = (int *)benchAlloc(sizeof(int) * M->Items);
  for (int T = Begin; T < End; ++T) {
    int N = 0;
    for (int I = M->Offsets[T]; I < M->Offsets[T + 1]; ++I)
      if (M->RankOf[M->Data[I]] >= 0)
        Ranks[N++] = M->RankOf[M->Data[I]];
    qsort(Ranks, (size_t)N, sizeof(int), compareInts);
    struct Node *At = &M->Root;
    for (int I = 0; I < N; ++I) {
      pthread_mutex_lock(&At->Lock);
      struct Node *Child = At->FirstChild;
      while (Child && Child->Item != Ranks[I])
        Child = Child->NextSibling;
      if (!Child) {
        Child = (struct Node *)benchAlloc(sizeof(struct Node));
        Child->Item = Ranks[I];
        Child->Parent = At;
        pthread_mutex_init(&Child->Lock, NULL);
        Child->NextSibling = At->FirstChild;
        At->FirstChild = Child;
        pthread_mutex_lock(&M->HeaderLock[Ranks[I]]);
        Child->NextSame = M->Header[Ranks[I]];
        M->Header[Ranks[I]] = Child;
        pthread_mutex_unlock(&M->HeaderLock[Ranks[I]]);
      }
      Child->Count++;
      pthread_mutex_unlock(&At->Lock);
      At = Child;
    }
  }
  free(Ranks);
}

// The conditional tree of rank R from the shared tree, then FP-growth on it.
static void mineItem(const struct Miner *M, int R, int *Path,
                     struct Stats *S) {
  long Total = 0;
  long *Local = (long *)benchAlloc(sizeof(long) * (R + 1));
  for (const struct Node *N = M->Header[R]; N; N = N->NextSame) {
    Total += N->Count;
    for (const struct Node *P = N->Parent; P != &M->Root; P = P->Parent)
      Local[P->Item] += N->Count;
  }
  S->Found[1]++;
  S->SupportSum += Total;
  struct CTree Cond;
  ctreeInit(&Cond, R);
  for (const struct Node *N = M->Header[R]; N; N = N->NextSame) {
    int Len = 0;
    for (const struct Node *P = N->Parent; P != &M->Root; P = P->Parent)
      if (Local[P->Item] >= M->MinSupport)
        Path[Len++] = P->Item;
    for (int A = 0, B = Len - 1; A < B; ++A, --B) {
      int Swap = Path[A];
      Path[A] = Path[B];
      Path[B] = Swap;
    }
    ctreeInsert(&Cond, Path, Len, N->Count);
  }
  free(Local);
  if (Cond.Size > 1)
    mine(M, &Cond, 1, Path + M->Frequent, S);
  ctreeFree(&Cond);
}

static void worker(void *Arg, int Index) {
  struct Miner *M = (struct Miner *)Arg;
  int Begin = (int)((long)M->Transactions * Index / M->Threads);
  int End = (int)((long)M->Transactions * (Index + 1) / M->Threads);
  countPhase(M, Begin, End);
  pthread_barrier_wait(&M->Barrier);
  if (Index == 0)
    rankItems(M);
  pthread_barrier_wait(&M->Barrier);
  insertPhase(M, Begin, End);
  pthread_barrier_wait(&M->Barrier);

  struct Stats S;
  memset(&S, 0, sizeof(S));
  // One path buffer per recursion level.
  int *Path = (int *)benchAlloc(sizeof(int) * M->Frequent * (kMaxLength + 2));
  for (;;) {
    pthread_mutex_lock(&M->TicketLock);
    int R = M->NextRank < M->Frequent ? M->NextRank++ : -1;
    pthread_mutex_unlock(&M->TicketLock);
    if (R < 0)
      break;
    mineItem(M, R, Path, &S);
  }
  free(Path);
  if (!M->Race)
    pthread_mutex_lock(&M->StatsLock);
  for (int L = 0; L <= kMaxLength; ++L)
    M->Found[L] += S.Found[L];
  M->SupportSum += S.SupportSum;
  if (!M->Race)
    pthread_mutex_unlock(&M->StatsLock);
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  struct Miner *M = (struct Miner *)benchAlloc(sizeof(struct Miner));
  M->Transactions = (int)benchPick(&A, 2000, 120000, 400000);
  M->Items = 1000;
  M->MinSupport = M->Transactions / 600;
  M->Threads = A.Threads;
  M->Race = A.Race;

  // Transactions of 4 to 24 items, skewed towards low item numbers, with
  // a few item groups that tend to appear together.
  struct BenchRng R = benchRngMake(11);
  int *Offsets = (int *)benchAlloc(sizeof(int) * (M->Transactions + 1));
  int *Data = (int *)benchAlloc(sizeof(int) * M->Transactions * 24);
  unsigned char *In = (unsigned char *)benchAlloc(M->Items);
  int Size = 0;
  for (int T = 0; T < M->Transactions; ++T) {
    Offsets[T] = Size;
    int Length = 4 + (int)benchRngBelow(&R, 21);
    int Group = (int)benchRngBelow(&R, 40) * 7;
    for (int I = 0; I < Length; ++I) {
      double U = benchRngDouble(&R);
      int Item = I < 4 && benchRngBelow(&R, 3) ? Group + I
                                                : (int)(M->Items * U * U * U);
      if (!In[Item]) {
        In[Item] = 1;
        Data[Size++] = Item;
      }
    }
    for (int I = Offsets[T]; I < Size; ++I)
      In[Data[I]] = 0;
  }
  Offsets[M->Transactions] = Size;
  free(In);
  M->Offsets = Offsets;
  M->Data = Data;
  M->Frequency = (long *)benchAlloc(sizeof(long) * M->Items);
  M->RankOf = (int *)benchAlloc(sizeof(int) * M->Items);
  M->Root.Item = -1;
  pthread_mutex_init(&M->Root.Lock, NULL);
  pthread_mutex_init(&M->CountLock, NULL);
  pthread_mutex_init(&M->TicketLock, NULL);
  pthread_mutex_init(&M->StatsLock, NULL);
  pthread_barrier_init(&M->Barrier, NULL, A.Threads);

  double Start = benchNow();
  benchParallel(A.Threads, worker, M);

  uint64_t H = benchHashU64(BENCH_CHECKSUM_INIT, (uint64_t)M->SupportSum);
  for (int L = 0; L <= kMaxLength; ++L)
    H = benchHashU64(H, (uint64_t)M->Found[L]);
  benchReport("freqmine", H, Start);
  long Total = 0;
  for (int L = 0; L <= kMaxLength; ++L)
    Total += M->Found[L];
  printf("freqmine: %d frequent items, %ld frequent itemsets\n", M->Frequent,
         Total);
  return 0;
}
