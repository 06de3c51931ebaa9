// A signal handler that calls malloc (async-signal-unsafe: the code it
// interrupted may hold the allocator's locks) and one that returns with
// errno changed are reported (report_signal_unsafe=1, the default). A
// handler that saves and restores errno around a write is silent.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t malloc 2>&1 | FileCheck %s --check-prefix=MALLOC
// RUN: not %t errno 2>&1 | FileCheck %s --check-prefix=ERRNO
// RUN: %t careful 2>&1 | FileCheck %s --check-prefix=CAREFUL
// RUN: env HRACE_OPTIONS=report_signal_unsafe=0 %t malloc 2>&1 | FileCheck %s --check-prefix=CAREFUL
//
// MALLOC:      WARNING: HybridRace: async-signal-unsafe call inside a signal handler
// MALLOC-NEXT:   Thread T0 calls malloc inside a signal handler:
// MALLOC-NEXT:     #0 malloc
// MALLOC-NEXT:     #1 Allocating {{.*}}.c:[[@LINE+23]]
// MALLOC:      SUMMARY: HybridRace: signal-unsafe-call {{.*}}.c:[[@LINE+22]] in Allocating
//
// ERRNO:      WARNING: HybridRace: signal handler spoils errno
// ERRNO-NEXT:   Thread T0 runs a handler of signal 10 that changes errno:
// ERRNO-NEXT:     #0 Spoiling {{.*}}.c
// ERRNO:      SUMMARY: HybridRace: errno-in-signal-handler {{.*}} in Spoiling
//
// CAREFUL-NOT: HybridRace
// CAREFUL: handled
// CAREFUL-NOT: HybridRace

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t Handled;
static void *volatile Kept;

static void Allocating(int Sig) {
  Kept = malloc(16); // @malloc
  Handled = 1;
}

static void Spoiling(int Sig) {
  errno = EINTR;
  Handled = 1;
}

static void Careful(int Sig) {
  int Saved = errno;
  (void)write(-1, "", 0);
  errno = Saved;
  Handled = 1;
}

int main(int Argc, char **Argv) {
  void (*Handler)(int) = !strcmp(Argv[1], "malloc")  ? Allocating
                         : !strcmp(Argv[1], "errno") ? Spoiling
                                                     : Careful;
  signal(SIGUSR1, Handler);
  errno = 0;
  // From another process's view: asynchronous, like a timer or a kill.
  kill(getpid(), SIGUSR1);
  while (!Handled)
    ;
  fprintf(stderr, "handled\n");
  return 0;
}
