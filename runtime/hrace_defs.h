//===-- hrace_defs.h - Basic types and macros of the runtime --------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_DEFS_H
#define HRACE_DEFS_H

#include <stddef.h>
#include <stdint.h>

namespace hrace {

typedef uintptr_t uptr;
typedef intptr_t sptr;
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

// A thread's logical clock. 64 bits: a thread releasing once a nanosecond
// would take five centuries to wrap it, so no run ever does.
typedef u64 Clock;

#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CALLER_PC() ((hrace::uptr)__builtin_return_address(0))
#define INTERFACE_ATTRIBUTE __attribute__((visibility("default")))

// Fatal internal error: prints and exits. The runtime uses it only for states
// that cannot be recovered from (shadow cannot be mapped, tables exhausted).
[[noreturn]] void Die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

#define HRACE_CHECK(cond)                                                      \
  do {                                                                         \
    if (UNLIKELY(!(cond)))                                                     \
      ::hrace::Die("HybridRace: internal check failed: %s at %s:%d\n", #cond,  \
                   __FILE__, __LINE__);                                        \
  } while (0)

// Relaxed atomics on plain integers: the runtime's shared words are read and
// written by several threads at once, and every such access goes through one
// of these so the runtime itself has no data races.
template <typename T> ALWAYS_INLINE T LoadRelaxed(const T *p) {
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}
template <typename T> ALWAYS_INLINE void StoreRelaxed(T *p, T v) {
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
}
template <typename T> ALWAYS_INLINE T LoadAcquire(const T *p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
template <typename T> ALWAYS_INLINE void StoreRelease(T *p, T v) {
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

// The address of an object, as the shadow and the sync table key it.
ALWAYS_INLINE uptr Addr(const volatile void *p) {
  return reinterpret_cast<uptr>(const_cast<const void *>(p));
}

} // namespace hrace

#endif // HRACE_DEFS_H
