//===-- hrace_interceptors_libc.cpp - libc functions on user memory -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libc reads and writes the program's memory on its behalf; those accesses
// are the caller's accesses, checked as ranges at the caller's pc. The
// __hrace_mem* entry points replace the llvm.mem* intrinsics in instrumented
// code and do the same.
//
//===----------------------------------------------------------------------===//
#include "hrace_libc_calls.h"

#include "../runtime/hrace_interface.h"

using namespace hrace;

DEFINE_REAL(void *, memcpy, void *, const void *, size_t)
DEFINE_REAL(void *, memmove, void *, const void *, size_t)
DEFINE_REAL(void *, memset, void *, int, size_t)
DEFINE_REAL(int, memcmp, const void *, const void *, size_t)
DEFINE_REAL(void *, memchr, const void *, int, size_t)
DEFINE_REAL(size_t, strlen, const char *)
DEFINE_REAL(size_t, strnlen, const char *, size_t)
DEFINE_REAL(char *, strcpy, char *, const char *)
DEFINE_REAL(char *, strncpy, char *, const char *, size_t)
DEFINE_REAL(char *, stpcpy, char *, const char *)
DEFINE_REAL(char *, strcat, char *, const char *)
DEFINE_REAL(char *, strncat, char *, const char *, size_t)
DEFINE_REAL(int, strcmp, const char *, const char *)
DEFINE_REAL(int, strncmp, const char *, const char *, size_t)
DEFINE_REAL(char *, strchr, const char *, int)
DEFINE_REAL(char *, strrchr, const char *, int)
DEFINE_REAL(char *, strstr, const char *, const char *)
DEFINE_REAL(char *, strdup, const char *)
DEFINE_REAL(char *, strndup, const char *, size_t)

namespace hrace {
void InitLibcInterceptors() {
  RESOLVE_REAL(memcpy);
  RESOLVE_REAL(memmove);
  RESOLVE_REAL(memset);
  RESOLVE_REAL(memcmp);
  RESOLVE_REAL(memchr);
  RESOLVE_REAL(strlen);
  RESOLVE_REAL(strnlen);
  RESOLVE_REAL(strcpy);
  RESOLVE_REAL(strncpy);
  RESOLVE_REAL(stpcpy);
  RESOLVE_REAL(strcat);
  RESOLVE_REAL(strncat);
  RESOLVE_REAL(strcmp);
  RESOLVE_REAL(strncmp);
  RESOLVE_REAL(strchr);
  RESOLVE_REAL(strrchr);
  RESOLVE_REAL(strstr);
  RESOLVE_REAL(strdup);
  RESOLVE_REAL(strndup);
}
} // namespace hrace

// Before the runtime has resolved the real functions (the dynamic loader and
// early constructors may copy memory), the internal versions stand in.
#define MEM_INTERCEPTOR_PROLOGUE(name, fallback, ...)                          \
  if (UNLIKELY(!REAL(name)))                                                   \
    return fallback;                                                           \
  SCOPED_INTERCEPTOR(name, __VA_ARGS__)

static void *CopyWithoutReal(void *dst, const void *src, size_t n) {
  if (dst < src) {
    internal_memcpy(dst, src, n);
    return dst;
  }
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  for (size_t i = n; i-- > 0;)
    d[i] = s[i];
  return dst;
}

static void *SetWithoutReal(void *dst, int c, size_t n) {
  internal_memset(dst, c, n);
  return dst;
}

INTERCEPTOR_ATTRIBUTE void *memcpy(void *dst, const void *src, size_t n) {
  MEM_INTERCEPTOR_PROLOGUE(memcpy, CopyWithoutReal(dst, src, n), dst, src, n);
  ReadRange(thr, caller_pc, src, n);
  WriteRange(thr, caller_pc, dst, n);
  return REAL(memcpy)(dst, src, n);
}

INTERCEPTOR_ATTRIBUTE void *memmove(void *dst, const void *src, size_t n) {
  MEM_INTERCEPTOR_PROLOGUE(memmove, CopyWithoutReal(dst, src, n), dst, src, n);
  ReadRange(thr, caller_pc, src, n);
  WriteRange(thr, caller_pc, dst, n);
  return REAL(memmove)(dst, src, n);
}

INTERCEPTOR_ATTRIBUTE void *memset(void *dst, int c, size_t n) {
  MEM_INTERCEPTOR_PROLOGUE(memset, SetWithoutReal(dst, c, n), dst, c, n);
  WriteRange(thr, caller_pc, dst, n);
  return REAL(memset)(dst, c, n);
}

INTERCEPTOR_ATTRIBUTE int memcmp(const void *a, const void *b, size_t n) {
  MEM_INTERCEPTOR_PROLOGUE(memcmp, internal_memcmp(a, b, n), a, b, n);
  ReadRange(thr, caller_pc, a, n);
  ReadRange(thr, caller_pc, b, n);
  return REAL(memcmp)(a, b, n);
}

INTERCEPTOR_ATTRIBUTE void *memchr(const void *s, int c, size_t n) {
  SCOPED_INTERCEPTOR(memchr, s, c, n);
  void *res = REAL(memchr)(s, c, n);
  // Only the bytes up to the match were read.
  uptr read = res ? static_cast<uptr>(static_cast<char *>(res) -
                                      static_cast<const char *>(s)) + 1
                  : n;
  ReadRange(thr, caller_pc, s, read);
  return res;
}

INTERCEPTOR_ATTRIBUTE size_t strlen(const char *s) {
  MEM_INTERCEPTOR_PROLOGUE(strlen, internal_strlen(s), s);
  size_t n = REAL(strlen)(s);
  ReadRange(thr, caller_pc, s, n + 1);
  return n;
}

INTERCEPTOR_ATTRIBUTE size_t strnlen(const char *s, size_t max) {
  SCOPED_INTERCEPTOR(strnlen, s, max);
  size_t n = REAL(strnlen)(s, max);
  ReadRange(thr, caller_pc, s, n < max ? n + 1 : n);
  return n;
}

INTERCEPTOR_ATTRIBUTE char *strcpy(char *dst, const char *src) {
  SCOPED_INTERCEPTOR(strcpy, dst, src);
  uptr n = REAL(strlen)(src) + 1;
  ReadRange(thr, caller_pc, src, n);
  WriteRange(thr, caller_pc, dst, n);
  return REAL(strcpy)(dst, src);
}

INTERCEPTOR_ATTRIBUTE char *stpcpy(char *dst, const char *src) {
  SCOPED_INTERCEPTOR(stpcpy, dst, src);
  uptr n = REAL(strlen)(src) + 1;
  ReadRange(thr, caller_pc, src, n);
  WriteRange(thr, caller_pc, dst, n);
  return REAL(stpcpy)(dst, src);
}

INTERCEPTOR_ATTRIBUTE char *strncpy(char *dst, const char *src, size_t n) {
  SCOPED_INTERCEPTOR(strncpy, dst, src, n);
  uptr len = REAL(strnlen)(src, n);
  ReadRange(thr, caller_pc, src, len < n ? len + 1 : n);
  // strncpy pads the destination with zeros up to n.
  WriteRange(thr, caller_pc, dst, n);
  return REAL(strncpy)(dst, src, n);
}

INTERCEPTOR_ATTRIBUTE char *strcat(char *dst, const char *src) {
  SCOPED_INTERCEPTOR(strcat, dst, src);
  uptr dlen = REAL(strlen)(dst);
  uptr slen = REAL(strlen)(src) + 1;
  ReadRange(thr, caller_pc, dst, dlen + 1);
  ReadRange(thr, caller_pc, src, slen);
  WriteRange(thr, caller_pc, dst + dlen, slen);
  return REAL(strcat)(dst, src);
}

INTERCEPTOR_ATTRIBUTE char *strncat(char *dst, const char *src, size_t n) {
  SCOPED_INTERCEPTOR(strncat, dst, src, n);
  uptr dlen = REAL(strlen)(dst);
  uptr slen = REAL(strnlen)(src, n);
  ReadRange(thr, caller_pc, dst, dlen + 1);
  ReadRange(thr, caller_pc, src, slen < n ? slen + 1 : slen);
  WriteRange(thr, caller_pc, dst + dlen, slen + 1);
  return REAL(strncat)(dst, src, n);
}

// Comparisons read both strings up to the first difference or terminator.
static uptr ComparedLength(const char *a, const char *b, uptr max) {
  uptr i = 0;
  while (i < max && a[i] && a[i] == b[i])
    i++;
  return i < max ? i + 1 : max;
}

INTERCEPTOR_ATTRIBUTE int strcmp(const char *a, const char *b) {
  MEM_INTERCEPTOR_PROLOGUE(strcmp, internal_strcmp(a, b), a, b);
  uptr n = ComparedLength(a, b, ~static_cast<uptr>(0));
  ReadRange(thr, caller_pc, a, n);
  ReadRange(thr, caller_pc, b, n);
  return REAL(strcmp)(a, b);
}

INTERCEPTOR_ATTRIBUTE int strncmp(const char *a, const char *b, size_t max) {
  MEM_INTERCEPTOR_PROLOGUE(strncmp, internal_strncmp(a, b, max), a, b, max);
  uptr n = ComparedLength(a, b, max);
  ReadRange(thr, caller_pc, a, n);
  ReadRange(thr, caller_pc, b, n);
  return REAL(strncmp)(a, b, max);
}

INTERCEPTOR_ATTRIBUTE char *strchr(const char *s, int c) {
  SCOPED_INTERCEPTOR(strchr, s, c);
  char *res = REAL(strchr)(s, c);
  uptr n = res ? static_cast<uptr>(res - s) + 1 : REAL(strlen)(s) + 1;
  ReadRange(thr, caller_pc, s, n);
  return res;
}

INTERCEPTOR_ATTRIBUTE char *strrchr(const char *s, int c) {
  SCOPED_INTERCEPTOR(strrchr, s, c);
  ReadRange(thr, caller_pc, s, REAL(strlen)(s) + 1);
  return REAL(strrchr)(s, c);
}

INTERCEPTOR_ATTRIBUTE char *strstr(const char *haystack, const char *needle) {
  SCOPED_INTERCEPTOR(strstr, haystack, needle);
  char *res = REAL(strstr)(haystack, needle);
  uptr nlen = REAL(strlen)(needle);
  uptr hlen = res ? static_cast<uptr>(res - haystack) + nlen
                  : REAL(strlen)(haystack) + 1;
  ReadRange(thr, caller_pc, haystack, hlen);
  ReadRange(thr, caller_pc, needle, nlen + 1);
  return res;
}

INTERCEPTOR_ATTRIBUTE char *strdup(const char *s) {
  SCOPED_INTERCEPTOR(strdup, s);
  ReadRange(thr, caller_pc, s, REAL(strlen)(s) + 1);
  return REAL(strdup)(s);
}

INTERCEPTOR_ATTRIBUTE char *strndup(const char *s, size_t n) {
  SCOPED_INTERCEPTOR(strndup, s, n);
  uptr len = REAL(strnlen)(s, n);
  ReadRange(thr, caller_pc, s, len < n ? len + 1 : len);
  return REAL(strndup)(s, n);
}

// --- Replacements for the llvm.mem* intrinsics ------------------------------

extern "C" void *__hrace_memcpy(void *dst, const void *src, uintptr_t n) {
  ThreadState *thr = cur_thread();
  ReadRange(thr, CALLER_PC(), src, n);
  WriteRange(thr, CALLER_PC(), dst, n);
  return REAL(memcpy) ? REAL(memcpy)(dst, src, n) : CopyWithoutReal(dst, src, n);
}

extern "C" void *__hrace_memmove(void *dst, const void *src, uintptr_t n) {
  ThreadState *thr = cur_thread();
  ReadRange(thr, CALLER_PC(), src, n);
  WriteRange(thr, CALLER_PC(), dst, n);
  return REAL(memmove) ? REAL(memmove)(dst, src, n)
                       : CopyWithoutReal(dst, src, n);
}

extern "C" void *__hrace_memset(void *dst, int c, uintptr_t n) {
  ThreadState *thr = cur_thread();
  WriteRange(thr, CALLER_PC(), dst, n);
  return REAL(memset) ? REAL(memset)(dst, c, n) : SetWithoutReal(dst, c, n);
}
