// delete writes the object like free: T1 sets a field, T2 deletes the object
// unordered; the report names operator delete above T2's function. Deleting
// after a join is quiet.
//
// RUN: %hrace_cxx %s -o %t
// RUN: not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: env HRACE_OPTIONS=msm=hb not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: %t joined 2>&1 | FileCheck %s --check-prefix=JOINED
// RACE:        WARNING: HybridRace: data race
// RACE-NEXT:     Write of size 16 at [[OBJ:0x[0-9a-f]+]] by thread T2 (locks held: none):
// RACE-NEXT:       #0 operator delete
// RACE-NEXT:       #1 Destroy
// RACE:          Previous write of size 4 at [[OBJ]] by thread T1 (locks held: none):
// RACE-NEXT:       #0 Touch
// JOINED-NOT:  WARNING: HybridRace
// JOINED:      done

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct Pair {
  int A;
  int B[3];
};

static Pair *Object;
static int Touched;

static void *Touch(void *) {
  Object->A = 1;
  invisible_signal(&Touched);
  return nullptr;
}

static void *Destroy(void *) {
  invisible_wait(&Touched);
  delete Object;
  return nullptr;
}

int main(int, char **Argv) {
  Object = new Pair();
  pthread_t T1, T2;
  pthread_create(&T1, nullptr, Touch, nullptr);
  if (!strcmp(Argv[1], "joined")) {
    pthread_join(T1, nullptr);
    delete Object;
  } else {
    pthread_create(&T2, nullptr, Destroy, nullptr);
    pthread_join(T1, nullptr);
    pthread_join(T2, nullptr);
  }
  printf("done\n");
  return 0;
}
