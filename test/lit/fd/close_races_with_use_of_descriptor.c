// A descriptor is memory: closing it in one thread while another thread uses
// it, unordered, is a race, reported on "file descriptor N" with both calls'
// stacks, in every machine. Closing it after joining the thread that used it
// is not, and neither is a new descriptor that reuses the number of one
// another thread closed (the kernel orders the two).
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: env HRACE_OPTIONS=msm=hb not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: env HRACE_OPTIONS=msm=long not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: %t joined 2>&1 | FileCheck %s --check-prefix=JOINED
// RUN: env HRACE_OPTIONS=msm=hb %t joined 2>&1 | FileCheck %s --check-prefix=JOINED
// RUN: %t reused 2>&1 | FileCheck %s --check-prefix=REUSED
// RUN: env HRACE_OPTIONS=msm=hb %t reused 2>&1 | FileCheck %s --check-prefix=REUSED
// RACE:        WARNING: HybridRace: data race
// RACE-NEXT:     Write of size 8 at {{.*}} by thread T2 (locks held: none):
// RACE-NEXT:       #0 CloseIt
// RACE:          Previous read of size 8 at {{.*}} by thread T1 (locks held: none):
// RACE-NEXT:       #0 ReadIt
// RACE:          Location is file descriptor [[FD:[0-9]+]]
// RACE:        closed descriptor [[FD]]
// JOINED-NOT:  WARNING: HybridRace
// JOINED:      closed descriptor
// REUSED-NOT:  WARNING: HybridRace
// REUSED:      read 1 byte through the reused number

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int Fds[2], Read;

static void *ReadIt(void *Arg) {
  (void)Arg;
  char C;
  read(Fds[0], &C, 1);
  invisible_signal(&Read);
  return 0;
}

static void *CloseIt(void *Arg) {
  (void)Arg;
  invisible_wait(&Read);
  close(Fds[0]);
  return 0;
}

// T1 closes the pipe; main, ordered after it only invisibly, opens another
// one that gets the same number and reads from it.
static void *CloseOnly(void *Arg) {
  (void)Arg;
  close(Fds[0]);
  invisible_signal(&Read);
  return 0;
}

int main(int Argc, char **Argv) {
  (void)Argc;
  pipe(Fds);
  write(Fds[1], "x", 1);
  pthread_t T1, T2;
  if (!strcmp(Argv[1], "reused")) {
    int Closed = Fds[0];
    pthread_create(&T1, 0, CloseOnly, 0);
    invisible_wait(&Read);
    int Again[2];
    pipe(Again);
    write(Again[1], "y", 1);
    char C;
    if (Again[0] == Closed && read(Again[0], &C, 1) == 1)
      printf("read 1 byte through the reused number\n");
    pthread_join(T1, 0);
    return 0;
  }
  pthread_create(&T1, 0, ReadIt, 0);
  if (!strcmp(Argv[1], "joined")) {
    pthread_join(T1, 0);
    close(Fds[0]);
  } else {
    pthread_create(&T2, 0, CloseIt, 0);
    pthread_join(T1, 0);
    pthread_join(T2, 0);
  }
  printf("closed descriptor %d\n", Fds[0]);
  return 0;
}
