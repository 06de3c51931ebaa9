// What one thread writes to a file descriptor orders everything it did
// before for the thread that reads it: T1 sets a global, then writes to a
// pipe (or sends on a socket, writes to an eventfd, registers an epoll event,
// connects, writes through a dup'd descriptor); T2 reads from the other end
// (receives, reads the eventfd, waits on the epoll set, accepts), then reads
// the global. No report, in every machine. A write T1 makes after writing to
// the descriptor is not ordered: "late" is reported.
//
// RUN: %hrace_cc %s -o %t
// RUN: %t pipe 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t pipe 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t pipe 2>&1 | FileCheck %s
// RUN: %t socket 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t socket 2>&1 | FileCheck %s
// RUN: %t eventfd 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t eventfd 2>&1 | FileCheck %s
// RUN: %t epoll 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t epoll 2>&1 | FileCheck %s
// RUN: %t connect 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t connect 2>&1 | FileCheck %s
// RUN: %t dup 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t dup 2>&1 | FileCheck %s
// RUN: not %t pipe late 2>&1 | FileCheck %s --check-prefix=LATE
// RUN: env HRACE_OPTIONS=msm=hb not %t socket late 2>&1 | FileCheck %s --check-prefix=LATE
// CHECK-NOT: WARNING: HybridRace
// CHECK:     T2 read 42
// LATE:      WARNING: HybridRace: data race
// LATE:        Read of size 4 at {{.*}} by thread T2
// LATE-NEXT:     #0 Reader
// LATE:        Previous write of size 4 at {{.*}} by thread T1
// LATE-NEXT:     #0 Writer
// LATE:      T2 read 43

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int Data;
static const char *Mode;
static int Late, LateWritten;
// Pipe, socket pair or eventfd: T1 writes to WriteFd, T2 reads ReadFd.
static int WriteFd, ReadFd, EpollFd, ListenFd;
static struct sockaddr_un Address;

static void *Writer(void *Arg) {
  (void)Arg;
  Data = 42;
  if (!strcmp(Mode, "eventfd")) {
    eventfd_write(WriteFd, 1);
  } else if (!strcmp(Mode, "epoll")) {
    struct epoll_event Ev = {EPOLLIN, {0}};
    epoll_ctl(EpollFd, EPOLL_CTL_ADD, ReadFd, &Ev);
  } else if (!strcmp(Mode, "connect")) {
    int S = socket(AF_UNIX, SOCK_STREAM, 0);
    connect(S, (struct sockaddr *)&Address, sizeof(Address));
  } else if (!strcmp(Mode, "socket")) {
    send(WriteFd, "x", 1, 0);
  } else {
    write(WriteFd, "x", 1);
  }
  if (Late) {
    Data = 43;
    invisible_signal(&LateWritten);
  }
  return 0;
}

static void *Reader(void *Arg) {
  (void)Arg;
  char C;
  if (!strcmp(Mode, "eventfd")) {
    eventfd_t V;
    eventfd_read(ReadFd, &V);
  } else if (!strcmp(Mode, "epoll")) {
    struct epoll_event Ev;
    epoll_wait(EpollFd, &Ev, 1, -1);
  } else if (!strcmp(Mode, "connect")) {
    accept(ListenFd, 0, 0);
  } else if (!strcmp(Mode, "socket")) {
    recv(ReadFd, &C, 1, 0);
  } else {
    read(ReadFd, &C, 1);
  }
  if (Late)
    invisible_wait(&LateWritten);
  printf("T2 read %d\n", Data);
  return 0;
}

int main(int Argc, char **Argv) {
  Mode = Argv[1];
  Late = Argc > 2;
  int Fds[2];
  if (!strcmp(Mode, "socket")) {
    socketpair(AF_UNIX, SOCK_STREAM, 0, Fds);
  } else if (!strcmp(Mode, "eventfd")) {
    Fds[0] = Fds[1] = eventfd(0, 0);
  } else if (!strcmp(Mode, "connect")) {
    Address.sun_family = AF_UNIX;
    // An abstract name: nothing to clean up.
    snprintf(Address.sun_path + 1, sizeof(Address.sun_path) - 1,
             "hrace-fd-test-%d", (int)getpid());
    ListenFd = socket(AF_UNIX, SOCK_STREAM, 0);
    bind(ListenFd, (struct sockaddr *)&Address, sizeof(Address));
    listen(ListenFd, 1);
  } else {
    pipe(Fds);
  }
  ReadFd = Fds[0];
  WriteFd = Fds[1];
  if (!strcmp(Mode, "epoll")) {
    // The event is ready before it is registered: epoll_wait returns as
    // soon as T1 registers it.
    write(WriteFd, "x", 1);
    EpollFd = epoll_create1(0);
  }
  if (!strcmp(Mode, "dup"))
    WriteFd = dup(Fds[1]);
  pthread_t T1, T2;
  pthread_create(&T1, 0, Writer, 0);
  pthread_create(&T2, 0, Reader, 0);
  pthread_join(T1, 0);
  pthread_join(T2, 0);
  return 0;
}
