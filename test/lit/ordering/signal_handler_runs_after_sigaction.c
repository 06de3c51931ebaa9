// A handler runs after everything the thread that installed it did before
// installing it: main writes a global and installs a handler; a thread that
// was already running raises the signal and its handler reads the global.
// No report, in every machine. "late": main writes again after installing,
// which the handler's read races with.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// RUN: not %t late 2>&1 | FileCheck %s --check-prefix=LATE
// CHECK-NOT: WARNING: HybridRace
// CHECK:     handler read 42
// LATE:      WARNING: HybridRace: data race
// LATE:      SUMMARY: HybridRace: data race {{.*}} in OnUsr1

#include "hrace_test_sync.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

int Config, Seen;
static int Installed;

static void OnUsr1(int Sig) {
  (void)Sig;
  Seen = Config;
}

static void *RaiseWhenInstalled(void *Arg) {
  (void)Arg;
  // Ordering only: the thread exists before the write and the sigaction.
  invisible_wait(&Installed);
  raise(SIGUSR1);
  return 0;
}

int main(int Argc, char **Argv) {
  pthread_t T;
  pthread_create(&T, 0, RaiseWhenInstalled, 0);
  Config = 42;
  struct sigaction Act = {0};
  Act.sa_handler = OnUsr1;
  sigaction(SIGUSR1, &Act, 0);
  if (Argc > 1)
    Config = 42;
  invisible_signal(&Installed);
  pthread_join(T, 0);
  printf("handler read %d\n", Seen);
  return 0;
}
