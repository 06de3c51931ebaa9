// libc reads and writes the caller's buffers on its behalf, and those
// accesses are the caller's: T1 fills a global buffer, T2 (ordered after it
// only invisibly) hands the buffer to a libc function that reads or writes
// it. Each is reported as a race at T2's call, in every machine (glibc's
// inline getline, compiled into the test, is the frame above UseBuffer).
// After a join there is no report.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t read 2>&1 | FileCheck %s
// RUN: not %t readv 2>&1 | FileCheck %s
// RUN: not %t write 2>&1 | FileCheck %s
// RUN: not %t writev 2>&1 | FileCheck %s
// RUN: not %t sendmsg 2>&1 | FileCheck %s
// RUN: not %t fwrite 2>&1 | FileCheck %s
// RUN: not %t fgets 2>&1 | FileCheck %s
// RUN: not %t getline 2>&1 | FileCheck %s
// RUN: not %t puts 2>&1 | FileCheck %s
// RUN: not %t snprintf 2>&1 | FileCheck %s
// RUN: not %t sprintf 2>&1 | FileCheck %s
// RUN: not %t strtol 2>&1 | FileCheck %s
// RUN: not %t strtod 2>&1 | FileCheck %s
// RUN: not %t strchrnul 2>&1 | FileCheck %s
// RUN: not %t strspn 2>&1 | FileCheck %s
// RUN: not %t qsort 2>&1 | FileCheck %s
// RUN: not %t stat 2>&1 | FileCheck %s
// RUN: not %t time 2>&1 | FileCheck %s
// RUN: not %t localtime_r 2>&1 | FileCheck %s
// RUN: not %t strftime 2>&1 | FileCheck %s
// RUN: not %t strerror_r 2>&1 | FileCheck %s
// RUN: not %t pthread_setname_np 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t read 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb not %t snprintf 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long not %t strtol 2>&1 | FileCheck %s
// RUN: %t read joined 2>&1 | FileCheck %s --check-prefix=JOINED
// Null where the headers say nonnull, as programs do: nothing is checked.
// RUN: %t null joined 2>&1 | FileCheck %s --check-prefix=JOINED
// RUN: env HRACE_OPTIONS=msm=hb %t snprintf joined 2>&1 | FileCheck %s --check-prefix=JOINED
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   {{Read|Write}} of size {{[0-9]+}} at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 {{UseBuffer|getline .*stdio.h}}
// CHECK:        Previous write of size {{[0-9]+}} at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Fill
// CHECK:        Location is global 'Buf'
// JOINED-NOT: WARNING: HybridRace
// JOINED:     done

#define _GNU_SOURCE
#include "hrace_test_sync.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

_Alignas(16) char Buf[512];
static const char *Mode;
static int Filled, Fds[2];
static FILE *Input, *Sink;

static int CompareBytes(const void *A, const void *B) {
  return *(const char *)A - *(const char *)B;
}

static void *Fill(void *Arg) {
  (void)Arg;
  // Every byte, so any access to the buffer meets T1's write.
  for (unsigned I = 0; I < sizeof(Buf); I++)
    Buf[I] = I < 7 ? "123 abc"[I] : 0;
  invisible_signal(&Filled);
  return 0;
}

static void UseBuffer(void) {
  if (!strcmp(Mode, "read")) {
    read(Fds[0], Buf, 4);
  } else if (!strcmp(Mode, "readv")) {
    struct iovec Iov = {Buf, 4};
    readv(Fds[0], &Iov, 1);
  } else if (!strcmp(Mode, "write")) {
    write(Fds[1], Buf, 4);
  } else if (!strcmp(Mode, "writev")) {
    struct iovec Iov = {Buf, 4};
    writev(Fds[1], &Iov, 1);
  } else if (!strcmp(Mode, "sendmsg")) {
    // The buffers are read before the call fails (a pipe is no socket).
    struct iovec Iov = {Buf, 4};
    struct msghdr Msg = {0};
    Msg.msg_iov = &Iov;
    Msg.msg_iovlen = 1;
    sendmsg(Fds[1], &Msg, 0);
  } else if (!strcmp(Mode, "null")) {
    gettimeofday(0, 0);
    time(0);
  } else if (!strcmp(Mode, "fwrite")) {
    fwrite(Buf, 1, 4, Sink);
  } else if (!strcmp(Mode, "fgets")) {
    fgets(Buf, 16, Input);
  } else if (!strcmp(Mode, "getline")) {
    // getline reads and writes the pointer and the size it is given; a size
    // of 0 (bytes 8 to 15 are zero) makes it allocate a new line.
    getline((char **)Buf, (size_t *)(Buf + 8), Input);
  } else if (!strcmp(Mode, "puts")) {
    puts(Buf);
  } else if (!strcmp(Mode, "snprintf")) {
    snprintf(Buf, 16, "x%d", 1);
  } else if (!strcmp(Mode, "sprintf")) {
    sprintf(Buf, "x%d", 1);
  } else if (!strcmp(Mode, "strtol")) {
    printf("%ld\n", strtol(Buf, 0, 10));
  } else if (!strcmp(Mode, "strtod")) {
    printf("%g\n", strtod(Buf, 0));
  } else if (!strcmp(Mode, "strchrnul")) {
    printf("%p\n", (void *)strchrnul(Buf, 'z'));
  } else if (!strcmp(Mode, "strspn")) {
    printf("%zu\n", strspn(Buf, "0123456789"));
  } else if (!strcmp(Mode, "qsort")) {
    qsort(Buf, 7, 1, CompareBytes);
  } else if (!strcmp(Mode, "stat")) {
    stat("/", (struct stat *)Buf);
  } else if (!strcmp(Mode, "time")) {
    time((time_t *)Buf);
  } else if (!strcmp(Mode, "localtime_r")) {
    time_t T = 0;
    localtime_r(&T, (struct tm *)Buf);
  } else if (!strcmp(Mode, "strftime")) {
    struct tm Tm = {0};
    strftime(Buf, 64, "%Y", &Tm);
  } else if (!strcmp(Mode, "strerror_r")) {
    // The GNU strerror_r writes the buffer only for an unknown error.
    printf("%s\n", strerror_r(12345, Buf, 64));
  } else if (!strcmp(Mode, "pthread_setname_np")) {
    pthread_setname_np(pthread_self(), Buf);
  }
}

static void *Use(void *Arg) {
  if (!Arg)
    invisible_wait(&Filled);
  UseBuffer();
  return 0;
}

int main(int Argc, char **Argv) {
  Mode = Argv[1];
  int Joined = Argc > 2;
  pipe(Fds);
  write(Fds[1], "4567", 4);
  Sink = fopen("/dev/null", "w");
  Input = tmpfile();
  fputs("line\n", Input);
  rewind(Input);
  pthread_t T1, T2;
  pthread_create(&T1, 0, Fill, 0);
  if (Joined)
    pthread_join(T1, 0);
  pthread_create(&T2, 0, Use, (void *)(long)Joined);
  if (!Joined)
    pthread_join(T1, 0);
  pthread_join(T2, 0);
  printf("done\n");
  return 0;
}
