// Table II of seeds/002, I&I Locked: two threads each run
// `lock(M); X++; unlock(M)`. The table expects no race, yet the paper's tool
// reports one (its only false positives there): the read of one increment
// may see the other thread's increment or not, a parallel write dependency,
// although X always ends up 2 higher.
//
// This checker does not report it (rule beyond the paper): when a read is
// the read of a read-modify-write inside one critical section of a lock,
// writes that are themselves such updates under that lock are no write
// dependencies of it; and an update under the lock supersedes an earlier
// one under the same lock, so main's read after joining both threads has
// one write dependency (the later increment), not two. The trade-off:
// updates that do not commute, such as X = X * 2 against X = X + 1 under the
// lock, are serialised the same way and are not reported either, although
// the result depends on the order ("multiply" below pins that).
//
// Main writes X before creating the threads; that write happens before
// both increments.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1 %t 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=ndr=1 %t read 2>&1 | FileCheck %s --check-prefixes=SILENT,READ
// RUN: env HRACE_OPTIONS=ndr=1 %t multiply read 2>&1 | FileCheck %s --check-prefix=SILENT
// SILENT-NOT: non-deterministic read
// READ:       X = 3
// SILENT:     done
// SILENT-NOT: non-deterministic read

#include <pthread.h>
#include <stdio.h>
#include <string.h>

int X;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

static void *Incrementer(void *Arg) {
  pthread_mutex_lock(&M);
  X++;
  pthread_mutex_unlock(&M);
  return Arg;
}

static void *Doubler(void *Arg) {
  pthread_mutex_lock(&M);
  X = X * 2;
  pthread_mutex_unlock(&M);
  return Arg;
}

int main(int Argc, char **Argv) {
  int Multiply = 0, ReadAfterJoin = 0;
  for (int I = 1; I < Argc; ++I) {
    Multiply |= !strcmp(Argv[I], "multiply");
    ReadAfterJoin |= !strcmp(Argv[I], "read");
  }
  X = 1;
  pthread_t T1, T2;
  pthread_create(&T1, NULL, Incrementer, NULL);
  pthread_create(&T2, NULL, Multiply ? Doubler : Incrementer, NULL);
  pthread_join(T1, NULL);
  pthread_join(T2, NULL);
  if (ReadAfterJoin)
    printf("X = %d\n", X);
  printf("done\n");
  return 0;
}
