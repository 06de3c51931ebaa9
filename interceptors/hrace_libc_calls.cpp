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

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The length modifiers of a conversion.
enum class ArgSize { kDefault, kChar, kShort, kLong, kLongDouble };

// Steps over a printf argument that is not a string.
void SkipArg(va_list *ap, char conversion, ArgSize size) {
  switch (conversion) {
  case 'e':
  case 'E':
  case 'f':
  case 'F':
  case 'g':
  case 'G':
  case 'a':
  case 'A':
    if (size == ArgSize::kLongDouble)
      (void)va_arg(*ap, long double);
    else
      (void)va_arg(*ap, double);
    return;
  case 'p':
  case 'n':
    (void)va_arg(*ap, void *);
    return;
  default:
    // Integers: long and the 64-bit modifiers (ll, j, z, t) are 8 bytes,
    // the rest promoted to int.
    if (size == ArgSize::kLong)
      (void)va_arg(*ap, long);
    else
      (void)va_arg(*ap, int);
  }
}

} // namespace

void ReadFormatArgs(ThreadState *thr, uptr pc, const char *format,
                    va_list args) {
  if (!format)
    return;
  va_list ap;
  va_copy(ap, args);
  for (const char *p = format; *p; p++) {
    if (*p != '%')
      continue;
    p++;
    if (*p == '%')
      continue;
    const char *digits = p;
    while (IsDigit(*digits))
      digits++;
    // A positional argument: the types of all the others would be needed.
    if (*digits == '$')
      break;
    while (*p && internal_strchr("-+ #0'I", *p))
      p++;
    if (*p == '*') {
      (void)va_arg(ap, int);
      p++;
    }
    while (IsDigit(*p))
      p++;
    long precision = -1;
    if (*p == '.') {
      p++;
      precision = 0;
      if (*p == '*') {
        precision = va_arg(ap, int);
        p++;
      }
      while (IsDigit(*p))
        precision = precision * 10 + (*p++ - '0');
    }
    ArgSize size = ArgSize::kDefault;
    for (;; p++) {
      if (*p == 'h')
        size = size == ArgSize::kShort ? ArgSize::kChar : ArgSize::kShort;
      else if (*p == 'l' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 'Z' ||
               *p == 't')
        size = ArgSize::kLong;
      else if (*p == 'L')
        size = ArgSize::kLongDouble;
      else
        break;
    }
    char conversion = *p;
    bool wide =
        conversion == 'S' || (conversion == 's' && size == ArgSize::kLong);
    if (wide) {
      const wchar_t *s = va_arg(ap, const wchar_t *);
      uptr n = 0;
      while (s && (precision < 0 || static_cast<long>(n) < precision) && s[n])
        n++;
      // Without a precision the terminator is read too.
      ReadRange(thr, pc, s, (n + (precision < 0)) * sizeof(wchar_t));
    } else if (conversion == 's') {
      const char *s = va_arg(ap, const char *);
      uptr n = 0;
      while (s && (precision < 0 || static_cast<long>(n) < precision) && s[n])
        n++;
      ReadRange(thr, pc, s,
                n + (precision < 0 || static_cast<long>(n) < precision));
    } else if (conversion == 'm') {
      // glibc: strerror(errno), no argument.
    } else if (conversion &&
               internal_strchr("diouxXcCeEfFgGaApn", conversion)) {
      SkipArg(&ap, conversion, size);
    } else {
      break;
    }
    if (!*p)
      break;
  }
  va_end(ap);
}

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
