//===-- hrace_libc_calls.cpp - The libc call table's structured effects ---===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_libc_calls.h"

namespace hrace {

namespace {

// Each buffer of the vector in turn, until `limit` bytes are covered.
void IovecBuffers(ThreadState *thr, uptr pc, const struct iovec *iov, int count,
                  sptr limit, bool write) {
  for (int i = 0; i < count && limit > 0; i++) {
    uptr n = iov[i].iov_len < static_cast<uptr>(limit) ? iov[i].iov_len : limit;
    if (write)
      WriteRange(thr, pc, iov[i].iov_base, n);
    else
      ReadRange(thr, pc, iov[i].iov_base, n);
    limit -= n;
  }
}

} // namespace

void ReadIovec(ThreadState *thr, uptr pc, const struct iovec *iov, int count,
               sptr limit) {
  ReadRange(thr, pc, iov, count * static_cast<sptr>(sizeof(*iov)));
  IovecBuffers(thr, pc, iov, count, limit, false);
}

void WriteIovec(ThreadState *thr, uptr pc, const struct iovec *iov, int count,
                sptr limit) {
  // The kernel reads the vector to learn where to write.
  ReadRange(thr, pc, iov, count * static_cast<sptr>(sizeof(*iov)));
  IovecBuffers(thr, pc, iov, count, limit, true);
}

void ReadMsghdr(ThreadState *thr, uptr pc, const struct msghdr *msg,
                sptr limit) {
  ReadRange(thr, pc, msg, sizeof(*msg));
  ReadRange(thr, pc, msg->msg_name, msg->msg_namelen);
  ReadIovec(thr, pc, msg->msg_iov, static_cast<int>(msg->msg_iovlen), limit);
  ReadRange(thr, pc, msg->msg_control, msg->msg_controllen);
}

void WriteMsghdr(ThreadState *thr, uptr pc, const struct msghdr *msg,
                 sptr limit) {
  // recvmsg updates the lengths and flags in the header.
  WriteRange(thr, pc, msg, sizeof(*msg));
  WriteRange(thr, pc, msg->msg_name, msg->msg_namelen);
  WriteIovec(thr, pc, msg->msg_iov, static_cast<int>(msg->msg_iovlen), limit);
  WriteRange(thr, pc, msg->msg_control, msg->msg_controllen);
}

void WriteAddrinfo(ThreadState *thr, uptr pc, const struct addrinfo *list) {
  for (const struct addrinfo *ai = list; ai; ai = ai->ai_next) {
    WriteRange(thr, pc, ai, sizeof(*ai));
    WriteRange(thr, pc, ai->ai_addr, ai->ai_addrlen);
    WriteString(thr, pc, ai->ai_canonname);
  }
}

} // namespace hrace
