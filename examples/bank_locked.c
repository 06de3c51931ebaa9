//===-- bank_locked.c - Example: a balance guarded by a mutex -------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Four tellers deposit into one account, each deposit under the account's
// mutex. No race: the program runs clean under the detector.
//
//===----------------------------------------------------------------------===//

#include <pthread.h>
#include <stdio.h>

enum { kTellers = 4, kDeposits = 1000 };

static pthread_mutex_t BalanceLock = PTHREAD_MUTEX_INITIALIZER;
static long Balance;

static void *teller(void *Arg) {
  (void)Arg;
  for (int I = 0; I < kDeposits; ++I) {
    pthread_mutex_lock(&BalanceLock);
    Balance += 10;
    pthread_mutex_unlock(&BalanceLock);
  }
  return NULL;
}

int main(void) {
  pthread_t Tellers[kTellers];
  for (int I = 0; I < kTellers; ++I)
    pthread_create(&Tellers[I], NULL, teller, NULL);
  for (int I = 0; I < kTellers; ++I)
    pthread_join(Tellers[I], NULL);
  printf("bank_locked: balance = %ld\n", Balance);
  return Balance == 10L * kTellers * kDeposits ? 0 : 1;
}
