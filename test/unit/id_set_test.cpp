//===-- id_set_test.cpp - Interned sets of small ids ----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_id_set.h"

#include "gtest/gtest.h"

#include <vector>

namespace hrace {
namespace {

typedef std::vector<u32> Ids;

// A fresh table per test, so ids are predictable. Tables reserve their id
// space with mmap and are never unmapped.
class IdSetTest : public ::testing::Test {
protected:
  void SetUp() override { table = NewTable(1 << 12, 0); }

  static IdSetTable *NewTable(u32 max_sets, SetId overflow_id) {
    IdSetTable *t = new IdSetTable();
    t->Init(max_sets, overflow_id, "test sets");
    return t;
  }
  SetId Intern(const Ids &ids) {
    return table->Intern(ids.data(), static_cast<u32>(ids.size()));
  }
  Ids Members(SetId id) {
    u32 n;
    const u32 *ids = table->Members(id, &n);
    return Ids(ids, ids + n);
  }

  IdSetTable *table;
};

TEST_F(IdSetTest, EmptySetIsIdZero) {
  EXPECT_EQ(kEmptySet, Intern({}));
  EXPECT_EQ(Ids{}, Members(kEmptySet));
  EXPECT_FALSE(table->Contains(kEmptySet, 0));
}

TEST_F(IdSetTest, FirstSetsGetIdsFromOne) {
  EXPECT_EQ(1u, Intern({5}));
  EXPECT_EQ(2u, Intern({6}));
}

TEST_F(IdSetTest, EqualSetsShareAnId) {
  SetId a = Intern({3, 7});
  EXPECT_NE(kEmptySet, a);
  EXPECT_EQ(a, Intern({3, 7}));
}

TEST_F(IdSetTest, DifferentSetsGetDifferentIds) {
  SetId ids[] = {Intern({1}), Intern({2}), Intern({1, 2}), Intern({1, 2, 3}),
                 Intern({2, 3})};
  for (size_t i = 0; i < 5; i++)
    for (size_t j = i + 1; j < 5; j++)
      EXPECT_NE(ids[i], ids[j]) << i << " " << j;
}

TEST_F(IdSetTest, MembersReturnsTheSet) {
  EXPECT_EQ((Ids{4, 9, 100}), Members(Intern({4, 9, 100})));
  EXPECT_EQ((Ids{42}), Members(Intern({42})));
  EXPECT_EQ((Ids{0, 0xffffffffu}), Members(Intern({0, 0xffffffffu})));
}

TEST_F(IdSetTest, ManySetsStayDistinct) {
  std::vector<SetId> ids;
  for (u32 i = 0; i < 1000; i++)
    ids.push_back(Intern({i, i + 5000}));
  for (u32 i = 0; i < 1000; i++) {
    EXPECT_EQ(ids[i], Intern({i, i + 5000}));
    EXPECT_EQ((Ids{i, i + 5000}), Members(ids[i]));
  }
}

// Every id of a small table taken, so half its buckets: probes pass over
// other sets' buckets on their hash tags (125 times while they are interned,
// with the table's hash), some run past the last bucket to the first (4 times),
// and every set is still found under its own id.
TEST_F(IdSetTest, EverySetOfAFullTableIsFoundAgain) {
  IdSetTable *t = NewTable(64, 0);
  std::vector<SetId> ids;
  for (u32 i = 0; i < 63; i++) {
    u32 set[2] = {i, 101 + i};
    ids.push_back(t->Intern(set, 2));
  }
  for (u32 i = 0; i < 63; i++) {
    u32 set[2] = {i, 101 + i};
    EXPECT_EQ(i + 1, ids[i]);
    EXPECT_EQ(ids[i], t->Intern(set, 2));
  }
}

TEST_F(IdSetTest, Contains) {
  SetId s = Intern({2, 4, 8});
  EXPECT_TRUE(table->Contains(s, 2));
  EXPECT_TRUE(table->Contains(s, 8));
  EXPECT_FALSE(table->Contains(s, 3));
  EXPECT_FALSE(table->Contains(s, 0));
}

TEST_F(IdSetTest, IntersectKeepsCommonMembers) {
  EXPECT_EQ(Intern({2, 3}),
            table->Intersect(Intern({1, 2, 3}), Intern({2, 3, 4})));
  EXPECT_EQ(Intern({5}), table->Intersect(Intern({1, 5, 9}), Intern({5})));
}

TEST_F(IdSetTest, IntersectOfDisjointSetsIsEmpty) {
  EXPECT_EQ(kEmptySet, table->Intersect(Intern({1, 3}), Intern({2, 4})));
  EXPECT_EQ(kEmptySet, table->Intersect(Intern({1, 3}), kEmptySet));
  EXPECT_EQ(kEmptySet, table->Intersect(kEmptySet, Intern({1, 3})));
}

TEST_F(IdSetTest, IntersectWithItselfIsItself) {
  SetId s = Intern({1, 2});
  EXPECT_EQ(s, table->Intersect(s, s));
}

TEST_F(IdSetTest, InsertKeepsMembersSorted) {
  SetId s = Intern({2, 4});
  EXPECT_EQ(Intern({1, 2, 4}), table->Insert(s, 1));
  EXPECT_EQ(Intern({2, 3, 4}), table->Insert(s, 3));
  EXPECT_EQ(Intern({2, 4, 5}), table->Insert(s, 5));
}

TEST_F(IdSetTest, InsertOfMemberIsSameSet) {
  SetId s = Intern({2, 4});
  EXPECT_EQ(s, table->Insert(s, 2));
  EXPECT_EQ(s, table->Insert(s, 4));
}

TEST_F(IdSetTest, InsertIntoEmptySet) {
  EXPECT_EQ(Intern({7}), table->Insert(kEmptySet, 7));
}

TEST_F(IdSetTest, FullTableReturnsOverflowId) {
  IdSetTable *t = NewTable(4, 3);
  u32 a = 1, b = 2, c = 3, d = 4;
  SetId sa = t->Intern(&a, 1);
  SetId sb = t->Intern(&b, 1);
  EXPECT_EQ(1u, sa);
  EXPECT_EQ(2u, sb);
  EXPECT_EQ(3u, t->Intern(&c, 1));
  EXPECT_EQ(3u, t->Intern(&d, 1));
  // Sets interned before the table filled up keep their ids.
  EXPECT_EQ(sa, t->Intern(&a, 1));
  EXPECT_EQ(t->overflow_id(), 3u);
}

TEST_F(IdSetTest, OverflowIdIsNeverHandedOutForARealSet) {
  IdSetTable *t = NewTable(8, 2);
  std::vector<SetId> ids;
  for (u32 i = 0; i < 5; i++)
    ids.push_back(t->Intern(&i, 1));
  EXPECT_EQ((std::vector<SetId>{1, 3, 4, 5, 6}), ids);
}

TEST_F(IdSetTest, OverflowSetHasNoMembersAndIsNeutralInIntersect) {
  IdSetTable *t = NewTable(4, 3);
  u32 a = 1;
  SetId s = t->Intern(&a, 1);
  u32 n = 99;
  t->Members(3, &n);
  EXPECT_EQ(0u, n);
  EXPECT_EQ(s, t->Intersect(3, s));
  EXPECT_EQ(s, t->Intersect(s, 3));
  EXPECT_EQ(3u, t->Insert(3, 7));
}

TEST_F(IdSetTest, FullTableWithoutOverflowIdDies) {
  IdSetTable *t = NewTable(3, 0);
  u32 a = 1, b = 2, c = 3;
  t->Intern(&a, 1);
  t->Intern(&b, 1);
  EXPECT_DEATH(t->Intern(&c, 1), "HybridRace: more than 3 distinct test sets");
}

TEST_F(IdSetTest, SetOpCacheMatchesTheTable) {
  SetOpCache cache;
  SetId x = Intern({1, 2, 3});
  SetId y = Intern({2, 3, 4});
  EXPECT_EQ(Intern({2, 3}), cache.Intersect(table, x, y));
  EXPECT_EQ(Intern({2, 3}), cache.Intersect(table, x, y));
  EXPECT_EQ(x, cache.Intersect(table, x, x));
  EXPECT_EQ(kEmptySet, cache.Intersect(table, x, kEmptySet));
  EXPECT_EQ(kEmptySet, cache.Intersect(table, kEmptySet, y));
  EXPECT_EQ(Intern({1, 2, 3, 9}), cache.Insert(table, x, 9));
  EXPECT_EQ(Intern({1, 2, 3, 9}), cache.Insert(table, x, 9));
}

TEST_F(IdSetTest, SetOpCacheKeepsOperationsApart) {
  SetOpCache cache;
  // Same operands, different operations.
  SetId x = Intern({1, 2});
  SetId y = Intern({2});
  SetId inserted = table->Insert(x, y);
  ASSERT_NE(y, inserted);
  EXPECT_EQ(y, cache.Intersect(table, x, y));
  EXPECT_EQ(inserted, cache.Insert(table, x, y));
  EXPECT_EQ(y, cache.Intersect(table, x, y));
}

// A pair of members (a thread set of a shared location's first two
// threads) is the set of both, in either order, of one if they are equal,
// and interns no other set on the way: the ids a granule cell holds are few.
TEST_F(IdSetTest, SetOpCachePairInternsThePairAlone) {
  SetOpCache cache;
  u32 high = 0x80000001u, low = 0x80000000u | (1u << 30) | 5;
  SetId pair = cache.Pair(table, high, low);
  EXPECT_EQ(cache.Pair(table, low, high), pair);
  u32 n;
  const u32 *ids = table->Members(pair, &n);
  ASSERT_EQ(2u, n);
  EXPECT_EQ(high, ids[0]);
  EXPECT_EQ(low, ids[1]);
  SetId alone = cache.Pair(table, high, high);
  table->Members(alone, &n);
  EXPECT_EQ(1u, n);
  // The pair, the single member, and nothing between: the next id is the
  // third.
  EXPECT_EQ(alone + 1, Intern({42}));
  // The same operands as an insertion's: the operations stay apart.
  SetId set = Intern({1000});
  ASSERT_NE(1000u, set);
  EXPECT_EQ(Intern({1000, low}), cache.Insert(table, set, low));
  EXPECT_EQ(Intern({set, low}), cache.Pair(table, set, low));
  EXPECT_EQ(Intern({1000, low}), cache.Insert(table, set, low));
}

TEST_F(IdSetTest, SetOpCacheSurvivesEvictions) {
  SetOpCache cache;
  std::vector<SetId> sets;
  for (u32 i = 0; i < 64; i++)
    sets.push_back(Intern({i, 100 + i % 7}));
  for (int round = 0; round < 2; round++) {
    for (SetId a : sets) {
      for (SetId b : sets) {
        ASSERT_EQ(table->Intersect(a, b), cache.Intersect(table, a, b))
            << a << " " << b;
      }
    }
  }
}

// A recycled table (thread sets, lock sets) keeps a half of its ids per
// generation parity: a full half asks for the next generation, and a half is
// emptied when a generation of its parity starts.
u32 requested_generations;
u32 last_full_generation;
IdSetTable *recycled;
void StartNextGenerationOfRecycled(u32 full_generation) {
  requested_generations++;
  last_full_generation = full_generation;
  recycled->StartGeneration(full_generation + 1);
}

TEST_F(IdSetTest, RecycledTableStartsTheNextGenerationWhenAHalfIsFull) {
  recycled = NewTable(8, 0);
  recycled->EnableRecycling(StartNextGenerationOfRecycled);
  requested_generations = 0;
  table = recycled;
  // Generation 0: ids 1..3.
  EXPECT_EQ(1u, Intern({10}));
  EXPECT_EQ(2u, Intern({11}));
  EXPECT_EQ(3u, Intern({12}));
  EXPECT_EQ(0u, requested_generations);
  // The half is full: generation 1 starts, in ids 4..7.
  EXPECT_EQ(4u, Intern({13}));
  EXPECT_EQ(1u, requested_generations);
  EXPECT_EQ(0u, last_full_generation);
  EXPECT_EQ(1u, recycled->generation());
  // Generation 0's sets keep their members for one generation more, and an
  // equal set is interned again in the new half.
  EXPECT_EQ(Ids({10}), Members(1));
  EXPECT_EQ(5u, Intern({10}));
  EXPECT_EQ(4u, Intern({13}));
  EXPECT_EQ(6u, Intern({14}));
  EXPECT_EQ(7u, Intern({15}));
  // Generation 2 reuses generation 0's ids.
  EXPECT_EQ(1u, Intern({16}));
  EXPECT_EQ(2u, requested_generations);
  EXPECT_EQ(Ids({16}), Members(1));
  EXPECT_EQ(2u, Intern({10}));
}

// Each half packs its sets in an arena emptied with it: sets of other sizes
// made in the emptied half's place keep their own members, and the other
// half's sets are untouched.
TEST_F(IdSetTest, RecycledHalfStoresSetsOfAnySizeAnew) {
  recycled = NewTable(64, 0);
  recycled->EnableRecycling(StartNextGenerationOfRecycled);
  table = recycled;
  Ids big;
  for (u32 i = 0; i < IdSetTable::kMaxMembers; i++)
    big.push_back(1000 + i);
  SetId first = Intern({1, 2, 3});
  SetId largest = Intern(big);
  recycled->StartGeneration(1);
  SetId other_half = Intern({7, 8});
  recycled->StartGeneration(2);
  SetId small = Intern({5});
  SetId pair = Intern({4, 6});
  EXPECT_EQ(first, small);
  EXPECT_EQ(largest, pair);
  EXPECT_EQ(Ids({5}), Members(small));
  EXPECT_EQ(Ids({4, 6}), Members(pair));
  EXPECT_EQ(Ids({7, 8}), Members(other_half));
  EXPECT_EQ(pair, Intern({4, 6}));
}

// A large half's buckets go back to the kernel when the half held few sets,
// and are cleared in place when it held enough to have touched every page
// of them: either way the next generation of its parity interns sets from
// the half's first id, and interns the old ones anew. (A bucket left
// behind would not show here: a find checks the set its id names now, so
// a stale bucket costs probes, and a half never cleared would fill.)
TEST_F(IdSetTest, RecycledHalfForgetsItsSetsWhetherClearedInPlaceOrGivenBack) {
  // Halves of 32768 ids, each with 256 KiB of buckets (64 pages).
  recycled = NewTable(1 << 16, 0);
  recycled->EnableRecycling(StartNextGenerationOfRecycled);
  table = recycled;
  for (u32 sets : {10u, 5000u}) {
    u32 generation = recycled->generation();
    for (u32 i = 0; i < sets; i++)
      ASSERT_EQ(1 + i, Intern({i, 100000 + generation}));
    recycled->StartGeneration(generation + 1);
    recycled->StartGeneration(generation + 2);
    for (u32 i = 0; i < sets; i++)
      ASSERT_EQ(1 + i, Intern({i, 200000 + generation}));
    for (u32 i = 0; i < sets; i++)
      ASSERT_EQ(sets + 1 + i, Intern({i, 100000 + generation}));
    for (u32 i = 0; i < sets; i++)
      ASSERT_EQ(1 + i, Intern({i, 200000 + generation}));
    recycled->StartGeneration(generation + 4);
  }
}

TEST_F(IdSetTest, RecycledTableGivesTheOverflowIdForASetTooLarge) {
  recycled = NewTable(64, 63);
  recycled->EnableRecycling(StartNextGenerationOfRecycled);
  table = recycled;
  Ids too_big;
  for (u32 i = 0; i <= IdSetTable::kMaxMembers; i++)
    too_big.push_back(i);
  EXPECT_EQ(63u, Intern(too_big));
}

TEST_F(IdSetTest, RecycledTableKeepsItsOverflowIdOutOfBothHalves) {
  recycled = NewTable(8, 7);
  recycled->EnableRecycling(StartNextGenerationOfRecycled);
  table = recycled;
  recycled->StartGeneration(1);
  EXPECT_EQ(4u, Intern({1}));
  EXPECT_EQ(5u, Intern({2}));
  EXPECT_EQ(6u, Intern({3}));
  requested_generations = 0;
  EXPECT_EQ(1u, Intern({4}));
  EXPECT_EQ(1u, requested_generations);
  EXPECT_EQ(Ids(), Members(7));
}

TEST_F(IdSetTest, SetOpCacheForgetsItsResultsWhenCleared) {
  SetOpCache cache;
  SetId a = Intern({1, 2}), b = Intern({2, 3});
  EXPECT_EQ(Intern({2}), cache.Intersect(table, a, b));
  recycled = NewTable(8, 0);
  recycled->EnableRecycling(StartNextGenerationOfRecycled);
  // The same ids in another table: the memo would answer for the old one.
  recycled->Intern(std::vector<u32>{7}.data(), 1);
  SetId x = recycled->Intern(std::vector<u32>{7, 8}.data(), 2);
  cache.Clear();
  SetId y = cache.Intersect(recycled, a, b);
  u32 n;
  const u32 *m = recycled->Members(y, &n);
  EXPECT_EQ(Ids({7}), Ids(m, m + n));
  EXPECT_NE(x, y);
}

} // namespace
} // namespace hrace
