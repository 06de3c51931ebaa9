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

} // namespace
} // namespace hrace
