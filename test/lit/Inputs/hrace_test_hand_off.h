//===-- hrace_test_hand_off.h - One item handed over through a mutex ------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The hand-off of the tests of what a hand-off passes on: one thread
// publishes a heap item under a mutex, another takes it under the mutex
// once it has been published. The taker's one locked read of the slot is a
// hand-off edge (runtime/hrace_handoff.h), not a polling loop's full
// acquire: it waits for the publication by a flag the detector cannot see,
// which orders the two only for the test's determinism (the mutex is what
// the detector sees).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_HAND_OFF_H
#define HRACE_TEST_HAND_OFF_H

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdlib.h>

struct Item {
  int Value;
};

static pthread_mutex_t HandOffMutex = PTHREAD_MUTEX_INITIALIZER;
static struct Item *HandOffSlot;
static int HandOffPublished;

static __attribute__((unused)) void publish_item(struct Item *It) {
  pthread_mutex_lock(&HandOffMutex);
  HandOffSlot = It;
  pthread_mutex_unlock(&HandOffMutex);
  invisible_signal(&HandOffPublished);
}

// A new item holding `Value`, written here and then published.
static __attribute__((unused)) struct Item *publish_new_item(int Value) {
  struct Item *It = (struct Item *)malloc(sizeof(*It));
  It->Value = Value;
  publish_item(It);
  return It;
}

static __attribute__((unused)) struct Item *take_published_item(void) {
  invisible_wait(&HandOffPublished);
  pthread_mutex_lock(&HandOffMutex);
  struct Item *It = HandOffSlot;
  pthread_mutex_unlock(&HandOffMutex);
  return It;
}

#endif // HRACE_TEST_HAND_OFF_H
