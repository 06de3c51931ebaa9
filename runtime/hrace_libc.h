//===-- hrace_libc.h - libc pieces the runtime may use --------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime intercepts memcpy, strlen and friends, so its own code uses these
// internal versions instead: they never re-enter an interceptor. Output goes
// through write(2) on a file descriptor, never through stdio buffers that the
// program also uses.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LIBC_H
#define HRACE_LIBC_H

#include "hrace_defs.h"

#include <stdarg.h>

namespace hrace {

void internal_memcpy(void *dst, const void *src, uptr n);
void internal_memset(void *dst, int c, uptr n);
int internal_memcmp(const void *a, const void *b, uptr n);
uptr internal_strlen(const char *s);
int internal_strcmp(const char *a, const char *b);
int internal_strncmp(const char *a, const char *b, uptr n);
const char *internal_strchr(const char *s, int c);
const char *internal_strrchr(const char *s, int c);
void internal_strlcpy(char *dst, const char *src, uptr size);

// Writes all of buf to fd, retrying on EINTR and short writes.
// mmap and munmap by system call: the names are the program's interceptors.
void *internal_mmap(void *addr, uptr size, int prot, int flags, int fd,
                    u64 offset);
int internal_munmap(void *addr, uptr size);
// Moves the pages of [old_addr, old_addr+old_size) to new_addr, growing the
// mapping to new_size (MREMAP_MAYMOVE | MREMAP_FIXED); MAP_FAILED on error.
void *internal_mremap_fixed(void *old_addr, uptr old_size, uptr new_size,
                            void *new_addr);

void WriteToFd(int fd, const char *buf, uptr len);

// A fixed-capacity string for building messages without malloc.
class TextBuffer {
public:
  TextBuffer(char *storage, uptr capacity)
      : buf_(storage), cap_(capacity), len_(0) {
    buf_[0] = 0;
  }
  void Append(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
  void AppendV(const char *fmt, va_list ap);
  const char *data() const { return buf_; }
  uptr length() const { return len_; }
  void Clear() {
    len_ = 0;
    buf_[0] = 0;
  }

private:
  char *buf_;
  uptr cap_;
  uptr len_;
};

// Prints to stderr (fd 2) in one write.
void Printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace hrace

#endif // HRACE_LIBC_H
