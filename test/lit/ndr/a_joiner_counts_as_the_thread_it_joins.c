// A thread blocked in pthread_join runs its next epoch knowing all that the
// thread it joins knew when it ended: while it waits, it holds back no
// sweep. T1 reads 4096 lines of A in one epoch, ends it with a lock, then
// reads the 16384 lines of B: the epoch variables' slabs pass 1 MiB
// (ndr_sweep_mb=1) and T1 sweeps.
//
// join: main waits in pthread_join; T1 is then the only thread to run, so
// the sweep frees the 4096 reads of A. T1 starts once main sleeps in the
// kernel, blocked in the join (read from /proc with raw system calls,
// which the runtime does not see).
// spin: main waits for T1 in a loop the detector does not see, knowing
// nothing of T1's epochs, so the sweep keeps the reads.
//
// RUN: %hrace_cc -fsanitize-hybrid-race-ndr %s -o %t
// RUN: env HRACE_OPTIONS=ndr=1:ndr_sweep_mb=1:verbosity=2 %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=JOIN
// RUN: env HRACE_OPTIONS=ndr=1:ndr_sweep_mb=1:verbosity=2 %t spin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPIN
//
// JOIN:     a sweep freed 4{{[0-9][0-9][0-9]}} epoch variables
// JOIN-NOT: WARNING: HybridRace
//
// SPIN-NOT: a sweep freed {{[1-9][0-9][0-9][0-9]+}} epoch variables
// SPIN-NOT: WARNING: HybridRace
// SPIN:     sum 0

#include "../Inputs/hrace_test_lines.h"
#include "../Inputs/hrace_test_sync.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

char A[4096 * 64], B[16384 * 64];
static int Joining, Done;
static long MainTid;
static int Spin;

// The state letter of main in /proc/self/task/<tid>/stat: "tid (comm) S".
static HRACE_INVISIBLE char main_state(void) {
  char Path[64] = "/proc/self/task/", Digits[24], Stat[512];
  int N = 0, Len = 16;
  for (long T = MainTid; T; T /= 10)
    Digits[N++] = (char)('0' + T % 10);
  while (N)
    Path[Len++] = Digits[--N];
  const char *Tail = "/stat";
  for (int I = 0; Tail[I]; I++)
    Path[Len++] = Tail[I];
  Path[Len] = 0;
  long Fd = syscall(SYS_openat, AT_FDCWD, Path, O_RDONLY);
  long Got = syscall(SYS_read, Fd, Stat, sizeof(Stat) - 1);
  syscall(SYS_close, Fd);
  char State = 0;
  for (long I = Got - 1; I > 0; I--)
    if (Stat[I] == ')') {
      State = Stat[I + 2];
      break;
    }
  return State;
}

static void *Reader(void *Arg) {
  invisible_wait(&Joining);
  if (!Spin)
    for (unsigned Spins = 0; main_state() != 'S'; Spins++)
      invisible_pause(Spins);
  long Sum = read_lines(A, 4096);
  pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  Sum += read_lines(B, 16384);
  invisible_signal(&Done);
  return (void *)Sum;
}

int main(int Argc, char **Argv) {
  pthread_t T1;
  MainTid = syscall(SYS_gettid);
  Spin = Argc > 1;
  pthread_create(&T1, NULL, Reader, NULL);
  invisible_signal(&Joining);
  if (Spin)
    invisible_wait(&Done);
  void *Sum;
  pthread_join(T1, &Sum);
  printf("sum %ld\n", (long)Sum);
  return 0;
}
