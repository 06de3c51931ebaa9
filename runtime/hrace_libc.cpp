//===-- hrace_libc.cpp - libc pieces the runtime may use ------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_libc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace hrace {

// The runtime is built with -fno-builtin, so these loops stay loops and are
// not turned back into calls to the intercepted functions.
void internal_memcpy(void *dst, const void *src, uptr n) {
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  for (uptr i = 0; i < n; i++)
    d[i] = s[i];
}

void internal_memset(void *dst, int c, uptr n) {
  char *d = static_cast<char *>(dst);
  for (uptr i = 0; i < n; i++)
    d[i] = static_cast<char>(c);
}

} // namespace hrace

// What compiler-emitted memcpy, memmove and memset calls of the runtime bind
// to (hrace_redefine_builtins.h).
extern "C" void *__hrace_internal_memcpy(void *dst, const void *src,
                                         hrace::uptr n) {
  hrace::internal_memcpy(dst, src, n);
  return dst;
}

extern "C" void *__hrace_internal_memmove(void *dst, const void *src,
                                          hrace::uptr n) {
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  if (d < s) {
    for (hrace::uptr i = 0; i < n; i++)
      d[i] = s[i];
  } else {
    for (hrace::uptr i = n; i-- > 0;)
      d[i] = s[i];
  }
  return dst;
}

extern "C" void *__hrace_internal_memset(void *dst, int c, hrace::uptr n) {
  hrace::internal_memset(dst, c, n);
  return dst;
}

namespace hrace {

void *internal_mmap(void *addr, uptr size, int prot, int flags, int fd,
                    u64 offset) {
  long res = syscall(SYS_mmap, addr, size, prot, flags, fd, offset);
  return res == -1 ? MAP_FAILED : reinterpret_cast<void *>(res);
}

int internal_munmap(void *addr, uptr size) {
  return static_cast<int>(syscall(SYS_munmap, addr, size));
}

void *internal_mremap_fixed(void *old_addr, uptr old_size, uptr new_size,
                            void *new_addr) {
  long res = syscall(SYS_mremap, old_addr, old_size, new_size,
                     MREMAP_MAYMOVE | MREMAP_FIXED, new_addr);
  return res == -1 ? MAP_FAILED : reinterpret_cast<void *>(res);
}

int internal_memcmp(const void *a, const void *b, uptr n) {
  const unsigned char *x = static_cast<const unsigned char *>(a);
  const unsigned char *y = static_cast<const unsigned char *>(b);
  for (uptr i = 0; i < n; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

uptr internal_strlen(const char *s) {
  uptr n = 0;
  while (s[n])
    n++;
  return n;
}

int internal_strcmp(const char *a, const char *b) {
  return internal_strncmp(a, b, ~static_cast<uptr>(0));
}

int internal_strncmp(const char *a, const char *b, uptr n) {
  for (uptr i = 0; i < n; i++) {
    unsigned char x = a[i], y = b[i];
    if (x != y)
      return x < y ? -1 : 1;
    if (!x)
      return 0;
  }
  return 0;
}

const char *internal_strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == static_cast<char>(c))
      return s;
    if (!*s)
      return nullptr;
  }
}

const char *internal_strrchr(const char *s, int c) {
  const char *last = nullptr;
  for (;; s++) {
    if (*s == static_cast<char>(c))
      last = s;
    if (!*s)
      return last;
  }
}

void internal_strlcpy(char *dst, const char *src, uptr size) {
  if (!size)
    return;
  uptr i = 0;
  for (; i + 1 < size && src[i]; i++)
    dst[i] = src[i];
  dst[i] = 0;
}

void WriteToFd(int fd, const char *buf, uptr len) {
  while (len) {
    // By system call: the program's write is an interceptor.
    ssize_t n = syscall(SYS_write, fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    buf += n;
    len -= n;
  }
}

// vsnprintf formats integers and strings without allocating, so it is safe
// to call from inside the runtime, where its interceptor calls it at once.
void TextBuffer::AppendV(const char *fmt, va_list ap) {
  if (len_ + 1 >= cap_)
    return;
  int n = vsnprintf(buf_ + len_, cap_ - len_, fmt, ap);
  if (n < 0)
    return;
  len_ += static_cast<uptr>(n);
  if (len_ >= cap_)
    len_ = cap_ - 1;
}

void TextBuffer::Append(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  AppendV(fmt, ap);
  va_end(ap);
}

namespace {
void PrintfV(const char *fmt, va_list ap) {
  char storage[1024];
  TextBuffer text(storage, sizeof(storage));
  text.AppendV(fmt, ap);
  WriteToFd(2, text.data(), text.length());
}
} // namespace

void Printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PrintfV(fmt, ap);
  va_end(ap);
}

void Die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PrintfV(fmt, ap);
  va_end(ap);
  _exit(1);
}

} // namespace hrace
