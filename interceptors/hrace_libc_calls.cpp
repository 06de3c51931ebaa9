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

// The vector (which the kernel reads either way), then each buffer in turn
// until `limit` bytes are covered.
void IovecAccess(ThreadState *thr, uptr pc, const struct iovec *iov, int count,
                 sptr limit, bool write) {
  ReadRange(thr, pc, iov, count * static_cast<sptr>(sizeof(*iov)));
  for (int i = 0; i < count && limit > 0; i++) {
    uptr n = iov[i].iov_len < static_cast<uptr>(limit) ? iov[i].iov_len : limit;
    if (write)
      WriteRange(thr, pc, iov[i].iov_base, n);
    else
      ReadRange(thr, pc, iov[i].iov_base, n);
    limit -= n;
  }
}

// sendmsg reads the header; recvmsg also updates its lengths and flags.
void MsghdrAccess(ThreadState *thr, uptr pc, const struct msghdr *msg,
                  sptr limit, bool write) {
  auto range = write ? WriteRange<uptr> : ReadRange<uptr>;
  range(thr, pc, msg, sizeof(*msg));
  range(thr, pc, msg->msg_name, msg->msg_namelen);
  IovecAccess(thr, pc, msg->msg_iov, static_cast<int>(msg->msg_iovlen), limit,
              write);
  range(thr, pc, msg->msg_control, msg->msg_controllen);
}

} // namespace

void ReadIovec(ThreadState *thr, uptr pc, const struct iovec *iov, int count,
               sptr limit) {
  IovecAccess(thr, pc, iov, count, limit, false);
}

void WriteIovec(ThreadState *thr, uptr pc, const struct iovec *iov, int count,
                sptr limit) {
  IovecAccess(thr, pc, iov, count, limit, true);
}

void ReadMsghdr(ThreadState *thr, uptr pc, const struct msghdr *msg,
                sptr limit) {
  MsghdrAccess(thr, pc, msg, limit, false);
}

void WriteMsghdr(ThreadState *thr, uptr pc, const struct msghdr *msg,
                 sptr limit) {
  MsghdrAccess(thr, pc, msg, limit, true);
}

void WriteAddrinfo(ThreadState *thr, uptr pc, const struct addrinfo *list) {
  for (const struct addrinfo *ai = list; ai; ai = ai->ai_next) {
    WriteRange(thr, pc, ai, sizeof(*ai));
    WriteRange(thr, pc, ai->ai_addr, ai->ai_addrlen);
    WriteString(thr, pc, ai->ai_canonname);
  }
}

} // namespace hrace
