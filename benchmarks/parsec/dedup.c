//===-- dedup.c - Compression pipeline with deduplication -----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PARSEC's dedup: a stream compressor that stores each distinct chunk of
// data once. A pipeline of stages joined by bounded queues (mutex and two
// condition variables, common.h):
//
//   main      cuts the input into coarse segments
//   refine    (T threads) cuts segments into chunks where a Rabin rolling
//             hash hits a mark, hashes each chunk and looks it up in a
//             shared hash table with a mutex per bucket
//   compress  (T threads) compresses chunks seen for the first time into
//             their table entry, then broadcasts the entry's condition
//   write     (1 thread) puts the chunks back in stream order, waits for
//             an entry's compression on its condition variable, and emits
//             either the data or a reference to the first occurrence
//
// The output (hashed, not stored) is the same for any schedule: a chunk is
// emitted as data only at its first occurrence in stream order.
//
// -r: the Rabin table is built lazily by whichever refine thread starts
// first, with an unguarded "ready" flag, instead of by main before the
// threads start. Both refine threads do it before their first
// synchronisation, so their accesses are unordered.
//
//===----------------------------------------------------------------------===//

#include "common.h"

enum {
  kSegmentSize = 256 << 10,
  kWindow = 32,           // Bytes in the Rabin window.
  kMinChunk = 1024,
  kMaxChunk = 16 << 10,
  kBuckets = 1 << 14,
  kQueueDepth = 32,
  kLzBits = 12, // Compressor's hash table: 4096 positions.
};

struct Entry {
  uint64_t Hash[2];
  uint32_t Length;
  const unsigned char *Data;
  uint64_t FirstId; // Smallest stream id of a chunk with this content.
  pthread_mutex_t Lock;
  pthread_cond_t Compressed;
  int Done; // Guarded by Lock.
  unsigned char *Packed;
  uint32_t PackedLength;
  struct Entry *Next; // Bucket chain, guarded by the bucket's lock.
};

struct Chunk {
  uint64_t Id; // Segment << 16 | index in segment: stream order.
  int Last;    // The last chunk of its segment.
  int Fresh;   // First to reach the table: compress stage packs it.
  struct Entry *Entry;
};

struct Segment {
  uint64_t Index;
  const unsigned char *Data;
  size_t Length;
};

struct Dedup {
  const unsigned char *Input;
  size_t InputLength;
  int Threads, Race;
  uint64_t RabinTable[256];
  int RabinReady; // -r: the unguarded lazy-initialisation flag.
  struct Entry *Buckets[kBuckets];
  pthread_mutex_t BucketLock[kBuckets];
  struct BenchQueue Segments, ToCompress, ToWrite;
  uint64_t Checksum;
  uint64_t OutputBytes;
};

// The Rabin fingerprint of a window is sum(b[i] * x^(W-1-i)) in GF(2)[x]
// modulo a degree-64 polynomial; the table removes the oldest byte.
static uint64_t rabinShift(uint64_t F, unsigned char Byte) {
  for (int I = 0; I < 8; ++I)
    F = (F << 1) ^ ((F >> 63) ? 0xbfe6b8a5bf378d83ull : 0);
  return F ^ Byte;
}

static void buildRabinTable(uint64_t Table[256]) {
  for (int B = 0; B < 256; ++B) {
    uint64_t F = (uint64_t)B;
    for (int I = 1; I < kWindow; ++I)
      F = rabinShift(F, 0);
    Table[B] = F;
  }
}

static void chunkHash(const unsigned char *P, size_t N, uint64_t Out[2]) {
  uint64_t A = BENCH_CHECKSUM_INIT, B = 0x84222325cbf29ce4ull;
  for (size_t I = 0; I < N; ++I) {
    A = (A ^ P[I]) * 0x100000001b3ull;
    B = (B + P[I] + 1) * 0xff51afd7ed558ccdull;
    B ^= B >> 29;
  }
  Out[0] = A;
  Out[1] = B;
}

static struct Entry *lookup(struct Dedup *D, const unsigned char *Data,
                            uint32_t Length, uint64_t Id, int *Fresh) {
  uint64_t Hash[2];
  chunkHash(Data, Length, Hash);
  int B = (int)(Hash[0] % kBuckets);
  pthread_mutex_lock(&D->BucketLock[B]);
  struct Entry *E = D->Buckets[B];
  while (E && !(E->Hash[0] == Hash[0] && E->Hash[1] == Hash[1] &&
                E->Length == Length))
    E = E->Next;
  *Fresh = E == NULL;
  if (!E) {
    E = (struct Entry *)benchAlloc(sizeof(struct Entry));
    E->Hash[0] = Hash[0];
    E->Hash[1] = Hash[1];
    E->Length = Length;
    E->Data = Data;
    E->FirstId = Id;
    pthread_mutex_init(&E->Lock, NULL);
    pthread_cond_init(&E->Compressed, NULL);
    E->Next = D->Buckets[B];
    D->Buckets[B] = E;
  } else if (Id < E->FirstId) {
    E->FirstId = Id;
  }
  pthread_mutex_unlock(&D->BucketLock[B]);
  return E;
}

static void refine(struct Dedup *D) {
  if (D->Race && !D->RabinReady) {
    buildRabinTable(D->RabinTable);
    D->RabinReady = 1;
  }
  struct Segment *S;
  while ((S = (struct Segment *)benchQueuePop(&D->Segments))) {
    size_t Begin = 0;
    uint64_t Count = 0;
    uint64_t F = 0;
    for (size_t I = 0; I < S->Length; ++I) {
      F = rabinShift(F, S->Data[I]);
      if (I >= kWindow)
        F ^= D->RabinTable[S->Data[I - kWindow]];
      size_t Length = I + 1 - Begin;
      int Mark = (F & 0xfff) == 0x78 && Length >= kMinChunk;
      if (Mark || Length == kMaxChunk || I + 1 == S->Length) {
        struct Chunk *C = (struct Chunk *)benchAlloc(sizeof(struct Chunk));
        C->Id = S->Index << 16 | Count++;
        C->Last = I + 1 == S->Length;
        C->Entry = lookup(D, S->Data + Begin, (uint32_t)Length, C->Id,
                          &C->Fresh);
        benchQueuePush(&D->ToCompress, C);
        Begin = I + 1;
      }
    }
    free(S);
  }
  benchQueueClose(&D->ToCompress);
}

// Greedy LZ77: literals and (offset, length) matches found through a hash
// of the next four bytes.
static uint32_t compress(const unsigned char *In, uint32_t N,
                         unsigned char *Out, uint32_t *Table) {
  memset(Table, 0xff, sizeof(uint32_t) << kLzBits);
  uint32_t O = 0, I = 0;
  while (I < N) {
    uint32_t Best = 0, From = 0;
    if (I + 4 <= N) {
      uint32_t Key = (uint32_t)In[I] | (uint32_t)In[I + 1] << 8 |
                     (uint32_t)In[I + 2] << 16 | (uint32_t)In[I + 3] << 24;
      uint32_t Slot = (Key * 2654435761u) >> (32 - kLzBits);
      From = Table[Slot];
      Table[Slot] = I;
      if (From != 0xffffffffu && I - From < 65536)
        while (I + Best < N && Best < 255 && In[From + Best] == In[I + Best])
          Best++;
    }
    if (Best >= 4) {
      Out[O++] = 1;
      Out[O++] = (unsigned char)(I - From);
      Out[O++] = (unsigned char)((I - From) >> 8);
      Out[O++] = (unsigned char)Best;
      I += Best;
    } else {
      Out[O++] = 0;
      Out[O++] = In[I++];
    }
  }
  return O;
}

static void compressStage(struct Dedup *D) {
  uint32_t *Table = (uint32_t *)benchAlloc(sizeof(uint32_t) << kLzBits);
  struct Chunk *C;
  while ((C = (struct Chunk *)benchQueuePop(&D->ToCompress))) {
    if (C->Fresh) {
      struct Entry *E = C->Entry;
      unsigned char *Packed = (unsigned char *)benchAlloc(2 * E->Length);
      uint32_t Length = compress(E->Data, E->Length, Packed, Table);
      pthread_mutex_lock(&E->Lock);
      E->Packed = Packed;
      E->PackedLength = Length;
      E->Done = 1;
      pthread_cond_broadcast(&E->Compressed);
      pthread_mutex_unlock(&E->Lock);
    }
    benchQueuePush(&D->ToWrite, C);
  }
  free(Table);
  benchQueueClose(&D->ToWrite);
}

static void emit(struct Dedup *D, struct Chunk *C) {
  struct Entry *E = C->Entry;
  pthread_mutex_lock(&E->Lock);
  while (!E->Done)
    pthread_cond_wait(&E->Compressed, &E->Lock);
  pthread_mutex_unlock(&E->Lock);
  // Every chunk before this one in stream order went through the table, so
  // FirstId is final here.
  int B = (int)(E->Hash[0] % kBuckets);
  pthread_mutex_lock(&D->BucketLock[B]);
  uint64_t First = E->FirstId;
  pthread_mutex_unlock(&D->BucketLock[B]);
  if (First == C->Id) {
    D->Checksum = benchHashU64(D->Checksum, E->PackedLength);
    D->Checksum = benchHashBytes(D->Checksum, E->Packed, E->PackedLength);
    D->OutputBytes += 5 + E->PackedLength;
  } else {
    D->Checksum = benchHashU64(D->Checksum, First);
    D->OutputBytes += 9;
  }
  free(C);
}

// The writer keeps arriving chunks per segment until their turn comes.
static void writeStage(struct Dedup *D) {
  size_t Segments = (D->InputLength + kSegmentSize - 1) / kSegmentSize;
  size_t PerSegment = kSegmentSize / kMinChunk + 1;
  struct Chunk **Pending =
      (struct Chunk **)benchAlloc(sizeof(struct Chunk *) * Segments *
                                  PerSegment);
  uint64_t NextSegment = 0, NextIndex = 0;
  struct Chunk *C;
  while ((C = (struct Chunk *)benchQueuePop(&D->ToWrite))) {
    Pending[(C->Id >> 16) * PerSegment + (C->Id & 0xffff)] = C;
    struct Chunk *Ready;
    while (NextSegment < Segments &&
           (Ready = Pending[NextSegment * PerSegment + NextIndex])) {
      int Last = Ready->Last;
      emit(D, Ready);
      NextIndex = Last ? 0 : NextIndex + 1;
      NextSegment += Last;
    }
  }
  free(Pending);
}

// Stage threads: refine and compress T each, write 1.
static void stage(void *Arg, int Index) {
  struct Dedup *D = (struct Dedup *)Arg;
  if (Index < D->Threads)
    refine(D);
  else if (Index < 2 * D->Threads)
    compressStage(D);
  else
    writeStage(D);
}

// Text-like data where a third of the stream repeats earlier stretches.
static unsigned char *generateInput(size_t Length) {
  static const char *Words[] = {"race ",    "lock ",   "thread ",
                                "segment ", "happens ", "before ",
                                "shadow ",  "barrier ", "signal ",
                                "wait ",    "memory ", "state "};
  unsigned char *In = (unsigned char *)benchAlloc(Length);
  struct BenchRng Rng = benchRngMake(9);
  size_t Pos = 0;
  while (Pos < Length) {
    size_t Stretch = 16384 + benchRngBelow(&Rng, 49152);
    if (Stretch > Length - Pos)
      Stretch = Length - Pos;
    if (Pos > 1000000 && benchRngBelow(&Rng, 3) == 0) {
      size_t From = benchRngBelow(&Rng, (uint32_t)(Pos - Stretch));
      memcpy(In + Pos, In + From, Stretch);
      Pos += Stretch;
      continue;
    }
    for (size_t End = Pos + Stretch; Pos < End;) {
      const char *W = Words[benchRngBelow(&Rng, 12)];
      while (*W && Pos < End)
        In[Pos++] = (unsigned char)*W++;
      if (Pos < End && benchRngBelow(&Rng, 4) == 0)
        In[Pos++] = (unsigned char)('0' + benchRngBelow(&Rng, 10));
    }
  }
  return In;
}

int main(int Argc, char **Argv) {
  struct BenchArgs A = benchParseArgs(Argc, Argv);
  size_t Length = (size_t)benchPick(&A, 2, 96, 256) << 20;
  struct Dedup *D = (struct Dedup *)benchAlloc(sizeof(struct Dedup));
  D->Input = generateInput(Length);
  D->InputLength = Length;
  D->Threads = A.Threads;
  D->Race = A.Race;
  D->Checksum = BENCH_CHECKSUM_INIT;
  if (!A.Race)
    buildRabinTable(D->RabinTable);
  for (int B = 0; B < kBuckets; ++B)
    pthread_mutex_init(&D->BucketLock[B], NULL);
  size_t Segments = (Length + kSegmentSize - 1) / kSegmentSize;
  benchQueueInit(&D->Segments, kQueueDepth, 1);
  benchQueueInit(&D->ToCompress, kQueueDepth, A.Threads);
  // Never full: the writer must not block while it waits for a compression.
  benchQueueInit(&D->ToWrite, (int)(Segments * (kSegmentSize / kMinChunk + 1)),
                 A.Threads);

  double Start = benchNow();
  struct BenchTeam Team = benchTeamStart(2 * A.Threads + 1, stage, D);
  for (size_t I = 0; I < Segments; ++I) {
    struct Segment *Seg = (struct Segment *)benchAlloc(sizeof(struct Segment));
    Seg->Index = I;
    Seg->Data = D->Input + I * kSegmentSize;
    Seg->Length = I + 1 < Segments ? kSegmentSize : Length - I * kSegmentSize;
    benchQueuePush(&D->Segments, Seg);
  }
  benchQueueClose(&D->Segments);
  benchTeamJoin(&Team);

  benchReport("dedup", D->Checksum, Start);
  printf("dedup: %zu bytes in, %llu bytes out\n", Length,
         (unsigned long long)D->OutputBytes);
  for (int B = 0; B < kBuckets; ++B) {
    for (struct Entry *E = D->Buckets[B], *Next; E; E = Next) {
      Next = E->Next;
      pthread_mutex_destroy(&E->Lock);
      pthread_cond_destroy(&E->Compressed);
      free(E->Packed);
      free(E);
    }
    pthread_mutex_destroy(&D->BucketLock[B]);
  }
  benchQueueDestroy(&D->ToWrite);
  benchQueueDestroy(&D->ToCompress);
  benchQueueDestroy(&D->Segments);
  free((void *)D->Input);
  free(D);
  return 0;
}
