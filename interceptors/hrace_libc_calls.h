//===-- hrace_libc_calls.h - What the libc call table's effects do --------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The interceptors generated from hrace_libc_calls.tbl (gen_libc_calls.py)
// include this header and nothing else: it declares the types of the table's
// prototypes and defines each effect as a function. libc reads and writes
// the program's memory on its behalf; those accesses are the caller's,
// checked as ranges at the caller's pc.
//
// <string.h> is not included: in C++ it declares strchr and its kin as
// overloads that an extern "C" definition would clash with. The generated
// file is compiled with -fno-inline, which makes glibc's headers declare
// getline and vprintf out of line rather than as inline functions it could
// not define, and with -fno-delete-null-pointer-checks, because programs
// pass null where the headers say nonnull (gettimeofday's tv).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LIBC_CALLS_H
#define HRACE_LIBC_CALLS_H

#include "hrace_interceptors.h"

#include "../runtime/hrace_access.h"
#include "../runtime/hrace_fd.h"
#include "../runtime/hrace_libc.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

namespace hrace {

// A length that is zero or negative (a failed call's -1) covers nothing.
template <typename N>
ALWAYS_INLINE void ReadRange(ThreadState *thr, uptr pc, const void *p, N n) {
  if (p && n > 0)
    MemoryAccess(thr, pc, Addr(p), static_cast<uptr>(n), false);
}

template <typename N>
ALWAYS_INLINE void WriteRange(ThreadState *thr, uptr pc, const void *p, N n) {
  if (p && n > 0)
    MemoryAccess(thr, pc, Addr(p), static_cast<uptr>(n), true);
}

// A C string and its terminator.
ALWAYS_INLINE void ReadString(ThreadState *thr, uptr pc, const char *s) {
  if (s)
    ReadRange(thr, pc, s, internal_strlen(s) + 1);
}

ALWAYS_INLINE void WriteString(ThreadState *thr, uptr pc, const char *s) {
  if (s)
    WriteRange(thr, pc, s, internal_strlen(s) + 1);
}

// The iovec array, and its buffers up to `limit` bytes in all.
void ReadIovec(ThreadState *thr, uptr pc, const struct iovec *iov, int count,
               sptr limit);
void WriteIovec(ThreadState *thr, uptr pc, const struct iovec *iov, int count,
                sptr limit);
// A message header, its address, its iovec (`limit` bytes) and its control
// data: read by sendmsg, written by recvmsg.
void ReadMsghdr(ThreadState *thr, uptr pc, const struct msghdr *msg,
                sptr limit);
void WriteMsghdr(ThreadState *thr, uptr pc, const struct msghdr *msg,
                 sptr limit);
// The strings a printf format's %s conversions print (up to the precision,
// else with the terminator), taken from a copy of `args`. Positional
// arguments (%1$s) and conversions the parser does not know end the scan;
// %n's store is not modelled.
void ReadFormatArgs(ThreadState *thr, uptr pc, const char *format,
                    va_list args);
// getaddrinfo's result list is new memory the caller owns: written by it.
void WriteAddrinfo(ThreadState *thr, uptr pc, const struct addrinfo *list);

} // namespace hrace

#endif // HRACE_LIBC_CALLS_H
