//===-- hrace_fd.h - File descriptors as memory and synchronisation -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A file descriptor is two things to the runtime:
//  - memory: every call that uses it reads a word the runtime keeps for it,
//    close (and dup2 onto it) writes that word, so closing a descriptor that
//    an unordered thread uses is reported as a race on "file descriptor N";
//  - a synchronisation object: what is written to it (write, send, connect,
//    epoll_ctl, close) is released, what is read from it (read, recv, accept,
//    epoll_wait) acquires. The two ends of a pipe share one object; all
//    sockets share one (the peer of a socket is another descriptor of the
//    same process as often as not), and so do all files and descriptors the
//    runtime did not see created. The sharing only adds order, never a race.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_FD_H
#define HRACE_FD_H

#include "hrace_defs.h"

namespace hrace {

struct ThreadState;

enum class FdKind : u8 {
  kFile, // also: not seen created
  kSocket,
  kPipe,    // both ends of one pipe
  kEventfd, // and the other descriptors that carry events
  kEpoll,
};

// A descriptor was created: its word is new memory, written by thr.
void FdCreate(ThreadState *thr, uptr pc, int fd, FdKind kind);
// pipe, pipe2: the ends share one synchronisation object.
void FdCreatePipe(ThreadState *thr, uptr pc, int rfd, int wfd);
// dup, dup2, dup3, fcntl(F_DUPFD): newfd is created (closed first if it was
// open) and shares oldfd's synchronisation object.
void FdDup(ThreadState *thr, uptr pc, int oldfd, int newfd);
// A call uses the descriptor: a read of its word.
void FdUse(ThreadState *thr, uptr pc, int fd);
// Before a call that writes to the descriptor: a use and a release.
void FdRelease(ThreadState *thr, uptr pc, int fd);
// After a call that read from the descriptor.
void FdAcquire(ThreadState *thr, uptr pc, int fd);
// Before close: a write of the descriptor's word, and a release (a reader
// that then sees end of file is ordered after the close).
void FdClose(ThreadState *thr, uptr pc, int fd);

// Reports: whether addr is a descriptor's word, and which.
bool FdOfAddress(uptr addr, int *fd);

} // namespace hrace

#endif // HRACE_FD_H
