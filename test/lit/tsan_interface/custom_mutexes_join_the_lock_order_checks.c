// Custom mutexes annotated with ThreadSanitizer's __tsan_mutex_* calls are
// checked like pthread ones: a blocking pre_lock while another custom mutex
// is held orders the two (A then B, later B then A, is an
// inversion; a pre_lock with the try flag adds nothing), and a pre_unlock
// whose read flag does not match the hold is reported (MODE).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t order 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: %t try 2>&1 | FileCheck %s --check-prefix=TRY
// RUN: not %t mode 2>&1 | FileCheck %s --check-prefix=MODE
//
// ORDER:      WARNING: HybridRace: lock-order inversion (potential deadlock)
// ORDER-NEXT:   Cycle of 2 locks
// ORDER:        acquired here while holding mutex {{M[0-9]+}} by thread T0:
// ORDER-NEXT:     #0 Lock {{.*}}.c
// ORDER-NEXT:     #1 main {{.*}}.c:[[@LINE+35]]
// TRY-NOT:    HybridRace
// TRY:        done
// MODE:       WARNING: HybridRace: read unlock of a reader-writer lock held for writing
// MODE-NEXT:    Thread T0 read-unlocks lock {{M[0-9]+}} at 0x{{[0-9a-f]+}}, which it holds for writing:
// MODE:       SUMMARY: HybridRace: read-unlock-of-write-held-lock

#include <sanitizer/tsan_interface.h>
#include <stdio.h>
#include <string.h>

static int A, B;

static __attribute__((noinline)) void Lock(int *L, unsigned Flags) {
  __tsan_mutex_pre_lock(L, Flags);
  __tsan_mutex_post_lock(L, Flags, 0);
}

static __attribute__((noinline)) void Unlock(int *L, unsigned Flags) {
  __tsan_mutex_pre_unlock(L, Flags);
  __tsan_mutex_post_unlock(L, Flags);
}

int main(int Argc, char **Argv) {
  if (!strcmp(Argv[1], "mode")) {
    Lock(&A, 0);
    Unlock(&A, __tsan_mutex_read_lock);
    return 0;
  }
  Lock(&A, 0);
  Lock(&B, 0);
  Unlock(&B, 0);
  Unlock(&A, 0);
  unsigned Flags = !strcmp(Argv[1], "try") ? __tsan_mutex_try_lock : 0;
  Lock(&B, 0);
  Lock(&A, Flags); // @inverted
  Unlock(&A, 0);
  Unlock(&B, 0);
  fprintf(stderr, "done\n");
  return 0;
}
