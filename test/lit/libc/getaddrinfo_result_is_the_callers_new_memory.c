// getaddrinfo's result list is new memory written by its caller: a thread
// that reads it unordered races with the call (in every machine); a thread
// created after the call does not.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: env HRACE_OPTIONS=msm=hb not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: %t ordered 2>&1 | FileCheck %s --check-prefix=ORDERED
// RUN: env HRACE_OPTIONS=msm=hb %t ordered 2>&1 | FileCheck %s --check-prefix=ORDERED
// RACE:        WARNING: HybridRace: data race
// RACE-NEXT:     Read of size 4 at {{.*}} by thread T1 (locks held: none):
// RACE-NEXT:       #0 ReadFamily
// RACE:          Previous write of size {{[0-9]+}} at {{.*}} by thread T0 (locks held: none):
// RACE-NEXT:       #0 Resolve
// RACE:          Location is heap block
// ORDERED-NOT: WARNING: HybridRace
// ORDERED:     family 2

#include "hrace_test_sync.h"
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static struct addrinfo *Result;
static int Resolved;

// The pointer itself travels invisibly: only the list is checked.
static HRACE_INVISIBLE struct addrinfo *LoadResult(void) {
  return __atomic_load_n(&Result, __ATOMIC_ACQUIRE);
}

static void *ReadFamily(void *Arg) {
  if (Arg)
    invisible_wait(&Resolved);
  printf("family %d\n", LoadResult()->ai_family);
  return 0;
}

static void Resolve(void) {
  struct addrinfo Hints;
  memset(&Hints, 0, sizeof(Hints));
  Hints.ai_family = AF_INET;
  Hints.ai_flags = AI_NUMERICHOST;
  getaddrinfo("127.0.0.1", 0, &Hints, &Result);
}

int main(int Argc, char **Argv) {
  (void)Argc;
  int Race = !strcmp(Argv[1], "race");
  pthread_t T;
  if (Race) {
    pthread_create(&T, 0, ReadFamily, &Resolved);
    Resolve();
    invisible_signal(&Resolved);
  } else {
    Resolve();
    pthread_create(&T, 0, ReadFamily, 0);
  }
  pthread_join(T, 0);
  freeaddrinfo(Result);
  return 0;
}
