//===-- hrace_interface.h - ABI between instrumented code and runtime -----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions the HybridRace pass inserts calls to. The pass and the
// runtime must agree on every name and signature here; llvm-pass/ has its own
// copy of the names (it cannot include runtime headers), and the pass lit tests
// pin them down.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_INTERFACE_H
#define HRACE_INTERFACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HRACE_INTERFACE __attribute__((visibility("default")))

// Called from the module constructor the pass adds ("hrace.module_ctor").
// Idempotent; the runtime also initialises itself from .preinit_array.
HRACE_INTERFACE void __hrace_init(void);

// The thread's inline no-op tests (x86-64; runtime/hrace_inline_test.h):
// before calling __hrace_readN or __hrace_writeN for an aligned access of
// N <= 8 bytes, instrumented code may load the two 8-byte cells of the
// access's granule, at 0x580000000000 + ((addr << 1) & 0x1ffffffffff0),
// take the first if (first & spread) == spread and the second otherwise,
// and skip the call when (cell & spread) == spread and, for one of its
// kind's two tests {mask, value}, (cell & mask) == value,
// with the tests at [0..3] for a read and [4..7] for a write, and
// spread = ((1 << N) - 1) << (o + 30 + (o >> 2) * 26), o = addr & 7.
// 16 bytes aligned to 8 may skip their call when both of their granules
// (the second one's cells 16 bytes further) pass with the spread of 8.
// Initial-exec TLS, off ({0, 1}: never passes) until the thread is checked.
HRACE_INTERFACE extern __thread uint64_t __hrace_inline_test[8]
    __attribute__((tls_model("initial-exec")));

// Plain loads and stores; the access pc is the caller's return address.
HRACE_INTERFACE void __hrace_read1(void *addr);
HRACE_INTERFACE void __hrace_read2(void *addr);
HRACE_INTERFACE void __hrace_read4(void *addr);
HRACE_INTERFACE void __hrace_read8(void *addr);
HRACE_INTERFACE void __hrace_read16(void *addr);
HRACE_INTERFACE void __hrace_write1(void *addr);
HRACE_INTERFACE void __hrace_write2(void *addr);
HRACE_INTERFACE void __hrace_write4(void *addr);
HRACE_INTERFACE void __hrace_write8(void *addr);
HRACE_INTERFACE void __hrace_write16(void *addr);
// Accesses whose alignment is below their size.
HRACE_INTERFACE void __hrace_unaligned_read2(void *addr);
HRACE_INTERFACE void __hrace_unaligned_read4(void *addr);
HRACE_INTERFACE void __hrace_unaligned_read8(void *addr);
HRACE_INTERFACE void __hrace_unaligned_read16(void *addr);
HRACE_INTERFACE void __hrace_unaligned_write2(void *addr);
HRACE_INTERFACE void __hrace_unaligned_write4(void *addr);
HRACE_INTERFACE void __hrace_unaligned_write8(void *addr);
HRACE_INTERFACE void __hrace_unaligned_write16(void *addr);
// Two adjacent plain accesses of the size, one at addr and one right after
// it, each aligned to its size, on one line with nothing between them that
// could synchronise, whose inline tests did not both pass (the pass pairs
// them: -hrace-coalesce-adjacent).
HRACE_INTERFACE void __hrace_read1_pair(void *addr);
HRACE_INTERFACE void __hrace_read2_pair(void *addr);
HRACE_INTERFACE void __hrace_read4_pair(void *addr);
HRACE_INTERFACE void __hrace_write1_pair(void *addr);
HRACE_INTERFACE void __hrace_write2_pair(void *addr);
HRACE_INTERFACE void __hrace_write4_pair(void *addr);
// Any other size (odd vectors, aggregates).
HRACE_INTERFACE void __hrace_read_range(void *addr, uintptr_t size);
HRACE_INTERFACE void __hrace_write_range(void *addr, uintptr_t size);
// A store of an object's vtable pointer (constructors, destructors): a write
// if it changes the pointer, a read if it stores the one already there.
HRACE_INTERFACE void __hrace_vptr_update(void **addr, void *new_vptr);

// Just before a call to a pthreads function whose result the program uses:
// its error codes are handled, not reported as misuse.
HRACE_INTERFACE void __hrace_result_checked(void *fn);

// Non-deterministic reads (ndr=1), called only by code built with
// -fsanitize-hybrid-race-ndr, after the race checker's call of the same
// access. A module built so calls __hrace_ndr_module_init from its
// constructor. __hrace_ndr_dep comes just before the __hrace_ndr_write of a
// store whose value (control != 0: whose execution) depends on the load of
// addr; `parent` is the object a stored field belongs to, or null; `name`
// the variable's source name from debug info (`acct.balance`, `p->next`),
// or null.
HRACE_INTERFACE void __hrace_ndr_module_init(void);
HRACE_INTERFACE void __hrace_ndr_read(void *addr, uintptr_t size);
HRACE_INTERFACE void __hrace_ndr_write(void *addr, uintptr_t size, void *parent,
                                       const char *name);
HRACE_INTERFACE void __hrace_ndr_dep(void *addr, uint32_t control,
                                     const char *name);

// Function entry/exit keep the shadow call stack used in reports.
// caller_pc is the function's return address (llvm.returnaddress(0)).
HRACE_INTERFACE void __hrace_func_entry(void *caller_pc);
HRACE_INTERFACE void __hrace_func_exit(void);

// Atomics. `order` uses the C11 numbering:
//   0 relaxed, 1 consume, 2 acquire, 3 release, 4 acq_rel, 5 seq_cst.
// Atomic operations of 1, 2, 4 and 8 bytes are performed by the runtime (the
// pass replaces the instruction with the call): values travel zero-extended
// in 64 bits; a compare-exchange returns the old value and exchanged if and
// only if it equals `cmp`.
enum HraceAtomicOp {
  HRACE_ATOMIC_XCHG = 0,
  HRACE_ATOMIC_ADD = 1,
  HRACE_ATOMIC_SUB = 2,
  HRACE_ATOMIC_AND = 3,
  HRACE_ATOMIC_NAND = 4,
  HRACE_ATOMIC_OR = 5,
  HRACE_ATOMIC_XOR = 6,
  HRACE_ATOMIC_MAX = 7,
  HRACE_ATOMIC_MIN = 8,
  HRACE_ATOMIC_UMAX = 9,
  HRACE_ATOMIC_UMIN = 10,
  // Of a float (4 bytes) or a double (8 bytes).
  HRACE_ATOMIC_FADD = 11,
  HRACE_ATOMIC_FSUB = 12,
};
#define HRACE_ATOMIC_DECLARE(bytes)                                            \
  HRACE_INTERFACE uint64_t __hrace_atomic_load##bytes(const void *addr,        \
                                                      int order);              \
  HRACE_INTERFACE void __hrace_atomic_store##bytes(void *addr, uint64_t v,     \
                                                   int order);                 \
  HRACE_INTERFACE uint64_t __hrace_atomic_rmw##bytes(void *addr, uint64_t v,   \
                                                     int op, int order);       \
  HRACE_INTERFACE uint64_t __hrace_atomic_cas##bytes(                          \
      void *addr, uint64_t cmp, uint64_t v, int success_order,                 \
      int failure_order);
HRACE_ATOMIC_DECLARE(1)
HRACE_ATOMIC_DECLARE(2)
HRACE_ATOMIC_DECLARE(4)
HRACE_ATOMIC_DECLARE(8)
#undef HRACE_ATOMIC_DECLARE

// Other atomics (16 bytes, operations the runtime does not know) stay in the
// program and the runtime is told around them: release before the
// instruction, acquire after, so the edge a reader takes always includes
// the writer's release.
HRACE_INTERFACE void __hrace_atomic_load(void *addr, uintptr_t size, int order);
HRACE_INTERFACE void __hrace_atomic_store(void *addr, uintptr_t size,
                                          int order);
// Around atomicrmw and cmpxchg. For cmpxchg, `order` of the _end call is the
// success ordering when the exchange happened and the failure ordering
// otherwise.
HRACE_INTERFACE void __hrace_atomic_rmw_begin(void *addr, uintptr_t size,
                                              int order);
HRACE_INTERFACE void __hrace_atomic_rmw_end(void *addr, uintptr_t size,
                                            int order);
HRACE_INTERFACE void __hrace_atomic_fence(int order);

// Replacements for llvm.memcpy / llvm.memmove / llvm.memset.
HRACE_INTERFACE void *__hrace_memcpy(void *dst, const void *src, uintptr_t n);
HRACE_INTERFACE void *__hrace_memmove(void *dst, const void *src, uintptr_t n);
HRACE_INTERFACE void *__hrace_memset(void *dst, int c, uintptr_t n);

// Condition-variable wait loops, marked statically by the pass: every loop
// that contains a call to a condition wait (directly or through a function of
// the same module that waits). `cv` and `mutex` are the wait's arguments where
// they are available at the mark, null otherwise.
// At the loop's entry, before the condition is first evaluated:
HRACE_INTERFACE void __hrace_wait_loop_enter(void *cv, void *mutex);
// On every exit edge of the loop: the wait has logically completed, whether
// or not the wait function was called (the signal may have come first).
HRACE_INTERFACE void __hrace_wait_loop_exit(void *cv, void *mutex);

#ifdef __cplusplus
}
#endif

#endif // HRACE_INTERFACE_H
