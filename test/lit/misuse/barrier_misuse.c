// Barriers: a count of zero, a second init of a live barrier, an init or a
// destroy while a thread waits on it, a destroy or a wait of a barrier that
// was never initialised. Each is reported before the call; the calls that
// would hang or corrupt end the run there (halt_on_error).
//
// The tests of "while a thread waits" sleep so that T1 reaches the wait:
// the sleep only orders, and the checks count arrivals the runtime saw.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t zero 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not %t twice 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t init-waited 2>&1 | FileCheck %s --check-prefix=INIT-WAITED
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t destroy-waited 2>&1 | FileCheck %s --check-prefix=DESTROY-WAITED
// RUN: not %t destroy-uninit 2>&1 | FileCheck %s --check-prefix=DESTROY-UNINIT
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t wait-uninit 2>&1 | FileCheck %s --check-prefix=WAIT-UNINIT
//
// ZERO:      WARNING: HybridRace: barrier initialised with a count of zero
// ZERO-NEXT:   Thread T0 initialises barrier at 0x{{[0-9a-f]+}} with a count of zero:
// ZERO-NOT:  returned an error
// ZERO:      SUMMARY: HybridRace: invalid-barrier-init
// TWICE:      WARNING: HybridRace: initialisation of an initialised barrier
// TWICE-NEXT:   Thread T0 initialises barrier at 0x{{[0-9a-f]+}} again:
// TWICE-NEXT:     #0 main
// TWICE-NEXT:   Barrier at 0x{{[0-9a-f]+}} was first observed by thread T0 at:
// INIT-WAITED:      WARNING: HybridRace: initialisation of a barrier with waiting threads
// INIT-WAITED-NEXT:   Thread T0 initialises barrier at 0x{{[0-9a-f]+}} again while threads wait on it:
// DESTROY-WAITED:      WARNING: HybridRace: destroy of a barrier with waiting threads
// DESTROY-WAITED-NEXT:   Thread T0 destroys barrier at 0x{{[0-9a-f]+}} while 1 thread waits on it:
// DESTROY-UNINIT:      WARNING: HybridRace: destroy of an uninitialised barrier
// DESTROY-UNINIT-NEXT:   Thread T0 destroys barrier at 0x{{[0-9a-f]+}}, which was never initialised:
// WAIT-UNINIT:      WARNING: HybridRace: wait on an uninitialised barrier
// WAIT-UNINIT-NEXT:   Thread T0 waits on barrier at 0x{{[0-9a-f]+}}, which was never initialised:
// WAIT-UNINIT:      SUMMARY: HybridRace: wait-on-uninitialised-barrier

#include <pthread.h>
#include <string.h>
#include <unistd.h>

static pthread_barrier_t B;

static void *Arrive(void *Arg) {
  pthread_barrier_wait(&B);
  return Arg;
}

int main(int Argc, char **Argv) {
  const char *What = Argv[1];
  if (!strcmp(What, "zero"))
    return pthread_barrier_init(&B, 0, 0) == 0;
  if (!strcmp(What, "destroy-uninit")) {
    pthread_barrier_destroy(&B);
    return 0;
  }
  if (!strcmp(What, "wait-uninit")) {
    pthread_barrier_wait(&B);
    return 0;
  }
  pthread_barrier_init(&B, 0, 2);
  if (!strcmp(What, "twice")) {
    pthread_barrier_init(&B, 0, 2);
    return 0;
  }
  pthread_t T;
  pthread_create(&T, 0, Arrive, 0);
  usleep(200000);
  if (!strcmp(What, "init-waited"))
    pthread_barrier_init(&B, 0, 2);
  else
    pthread_barrier_destroy(&B);
  return 0;
}
