// malloc, calloc and mmap hand out memory as a write by the allocating
// thread: a thread that gets the pointer without any ordering (here through
// a channel the detector cannot see) and touches the memory races with the
// allocation, in every machine, though the allocating thread never wrote
// the memory itself. The report names the allocation function.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t malloc 2>&1 | FileCheck %s --check-prefixes=CHECK,MALLOC
// RUN: env HRACE_OPTIONS=msm=short not %t malloc 2>&1 | FileCheck %s --check-prefixes=CHECK,MALLOC
// RUN: env HRACE_OPTIONS=msm=long not %t calloc 2>&1 | FileCheck %s --check-prefixes=CHECK,CALLOC
// RUN: env HRACE_OPTIONS=msm=short not %t mmap 2>&1 | FileCheck %s --check-prefixes=CHECK,MMAP
// Ordered by pthread_create, the same hand-over is silent:
// RUN: env HRACE_OPTIONS=msm=short %t malloc ordered 2>&1 | FileCheck %s --check-prefix=ORDERED
// RUN: env HRACE_OPTIONS=msm=hb %t mmap ordered 2>&1 | FileCheck %s --check-prefix=ORDERED
// CHECK:       WARNING: HybridRace: data race
// CHECK-NEXT:    Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T1 (locks held: none):
// CHECK-NEXT:      #0 User {{.*}}allocation_is_a_write.c:[[@LINE+35]]
// MALLOC-NEXT:   Previous write of size 64 at [[ADDR]] by thread T0 (locks held: none):
// MALLOC-NEXT:     #0 malloc
// CALLOC-NEXT:   Previous write of size 64 at [[ADDR]] by thread T0 (locks held: none):
// CALLOC-NEXT:     #0 calloc
// MMAP-NEXT:     Previous write of size 256 at [[ADDR]] by thread T0 (locks held: none):
// MMAP-NEXT:       #0 mmap
// CHECK:       HybridRace: reported 1 warning
// ORDERED-NOT: WARNING
// ORDERED:     used
// ORDERED-NOT: WARNING

#include "../Inputs/hrace_test_sync.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int *Block;
static int Handed;

// The channel the detector cannot see.
static HRACE_INVISIBLE void HandOver(int *P) {
  __atomic_store_n(&Block, P, __ATOMIC_RELEASE);
  invisible_signal(&Handed);
}
static HRACE_INVISIBLE int *Receive(void) {
  invisible_wait(&Handed);
  return __atomic_load_n(&Block, __ATOMIC_ACQUIRE);
}

static void *User(void *Arg) {
  int *P = Arg ? (int *)Arg : Receive();
  P[0] = 1; // @use
  return 0;
}

static int *Allocate(const char *How) {
  if (!strcmp(How, "mmap"))
    return mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (!strcmp(How, "calloc"))
    return calloc(16, sizeof(int));
  return malloc(16 * sizeof(int));
}

int main(int Argc, char **Argv) {
  pthread_t T;
  if (Argc > 2) {
    pthread_create(&T, NULL, User, Allocate(Argv[1]));
  } else {
    // Allocated after the user thread started: nothing orders the two.
    pthread_create(&T, NULL, User, NULL);
    HandOver(Allocate(Argv[1]));
  }
  pthread_join(T, NULL);
  fprintf(stderr, "used\n");
  return 0;
}
