//===-- hrace_inline_test.cpp - The thread's inline no-op tests -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_inline_test.h"

#include "../shadow/hrace_shadow_mapping.h"

#if defined(__x86_64__)
// The pass computes a granule's cells and a spread mask itself
// (HybridRacePass.cpp, createCheckedAccessCall), with the constants
// hrace_interface.h gives: the mapping and the mask encoding must stay them.
static_assert(hrace::Mapping::kGranuleBeg == 0x580000000000ull &&
                  ((hrace::kGranuleIndexMask & ~hrace::uptr(7)) *
                   hrace::kGranuleScale) == 0x1ffffffffff0ull,
              "the inline test's granule address is "
              "0x580000000000 + ((addr << 1) & 0x1ffffffffff0)");
#endif
static_assert(hrace::GranuleCell::SpreadMask(0x01) == 1ull << 30 &&
                  hrace::GranuleCell::SpreadMask(0x10) == 1ull << 60,
              "byte o of a granule is mask bit o + 30 + (o >> 2) * 26");

// Every test off in a new thread, until the runtime meets it: its first
// access then calls the runtime, which adopts it.
__thread uint64_t __hrace_inline_test[8] = {
    hrace::kInlineTestOff.mask, hrace::kInlineTestOff.value,
    hrace::kInlineTestOff.mask, hrace::kInlineTestOff.value,
    hrace::kInlineTestOff.mask, hrace::kInlineTestOff.value,
    hrace::kInlineTestOff.mask, hrace::kInlineTestOff.value};
