// Two adjacent plain accesses of one size (up to 4 bytes, each aligned to
// it), both reads or both writes, on one line of one basic block, whose
// pair lies at an offset from its object's start that is a multiple of the
// pair's size, with nothing between them that could synchronise (a call,
// an atomic, a fence) or change what the later one finds (a write between
// reads, any access between writes), are checked once, before the first:
// inline as one access of twice the size (which also fails when the pair's
// address is out of line at run time), then half by half, and one call of
// __hrace_read4_pair (and so on) when a half fails. Loops unrolled by the
// optimiser pair their consecutive elements. x86-64 only, where checks are
// inline. Under -fsanitize-hybrid-race-ndr each write of a pair still makes
// its own call to the checker of non-deterministic reads; a pair of reads
// is one read of its bytes there, as any run of loads on one line is
// (ndr_reads_of_one_run_are_one_call.c).
// RUN: %clang --target=x86_64-linux-gnu -O1 -g -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O1 -g -Xclang -load -Xclang %plugin -mllvm -hrace-coalesce-adjacent=0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=APART
// RUN: %clang --target=x86_64-linux-gnu -O1 -g -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=APART
// RUN: %clang --target=aarch64-linux-gnu -O1 -g -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=APART
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOLINES
// RUN: %clang --target=x86_64-linux-gnu -O1 -g -Xclang -load -Xclang %plugin -mllvm -hrace-ndr -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NDR

// The whole test holds the pair's 8 bytes to one passing cell and its
// address to a multiple of 8; the halves' test, out of line, holds each
// float's bytes to a passing cell of its own granule (the spread masks of
// its two halves, as a 4-byte access picks them); the call checks both.
// CHECK-LABEL: define {{.*}}@read_pair(
// CHECK:      %[[OUT_OF_LINE:[0-9]+]] = and i64 %{{[0-9]+}}, 7
// CHECK:      or i64 %{{[0-9]+}}, %[[OUT_OF_LINE]]
// CHECK:      br i1 %{{[0-9]+}}, label %[[HALVES:[0-9]+]], label %{{[0-9]+}}, {{.*}}!prof
// CHECK:      [[HALVES]]:
// CHECK:      select i1 %{{[0-9]+}}, i64 16106127360, i64 -1152921504606846976
// CHECK:      select i1 %{{[0-9]+}}, i64 16106127360, i64 -1152921504606846976
// CHECK:      call void @__hrace_read4_pair(
// CHECK-NOT:  call void @__hrace_read
// CHECK:      ret float
// APART-LABEL: define {{.*}}@read_pair(
// APART-NOT:  _pair(
// APART:      call void @__hrace_read4(
// APART:      call void @__hrace_read4(
// APART:      ret float
// NDR-LABEL: define {{.*}}@read_pair(
// NDR:      call void @__hrace_read4_pair(
// NDR:      call void @__hrace_ndr_read({{.*}}, i64 8)
// NDR-NOT:  call void @__hrace_
// NDR:      call void @__hrace_func_exit(
float read_pair(const float *P) { return P[0] + P[1]; }

// The higher element read first: the pair starts 4 bytes below it.
// CHECK-LABEL: define {{.*}}@read_pair_backwards(
// CHECK:      getelementptr i8, {{.*}} i64 -4
// CHECK:      call void @__hrace_read4_pair(
// CHECK-NOT:  call void @__hrace_read
// CHECK:      ret float
float read_pair_backwards(const float *P) { return P[1] * P[0]; }

// Writes pair as reads do, and so do 2- and 1-byte elements.
// CHECK-LABEL: define {{.*}}@write_pair(
// CHECK:      and i64 %{{[0-9]+}}, 3
// CHECK:      call void @__hrace_write2_pair(
// CHECK-NOT:  call void @__hrace_write
// CHECK:      ret void
// NDR-LABEL: define {{.*}}@write_pair(
// NDR:      call void @__hrace_write2_pair(
// NDR:      call void @__hrace_ndr_write({{.*}}, i64 2,
// NDR:      call void @__hrace_ndr_write({{.*}}, i64 2,
// NDR-NOT:  call void @__hrace_
// NDR:      call void @__hrace_func_exit(
void write_pair(short *P, short A, short B) { P[0] = A; P[1] = B; }
// CHECK-LABEL: define {{.*}}@read_byte_pair(
// CHECK:      and i64 %{{[0-9]+}}, 1
// CHECK:      call void @__hrace_read1_pair(
// CHECK-NOT:  call void @__hrace_read
// CHECK:      ret i32
int read_byte_pair(const char *P) { return P[4] + P[5]; }

// Elements at an even index and the next (a loop the optimiser unrolled)
// pair too; at an index that may be odd they are checked apart, as the
// pair could straddle two granules.
// CHECK-LABEL: define {{.*}}@even_index(
// CHECK:      call void @__hrace_read4_pair(
// CHECK:      ret float
float even_index(const float *P, long I) { return P[2 * I] - P[2 * I + 1]; }
// CHECK-LABEL: define {{.*}}@any_index(
// CHECK-NOT:  _pair(
// CHECK:      ret float
float any_index(const float *P, long I) { return P[I] - P[I + 1]; }
// CHECK-LABEL: define {{.*}}@odd_start(
// CHECK-NOT:  _pair(
// CHECK:      ret float
float odd_start(const float *P) { return P[1] + P[2]; }

// Two 8-byte halves would still be two granules: checked apart.
// CHECK-LABEL: define {{.*}}@double_pair(
// CHECK-NOT:  _pair(
// CHECK:      ret double
double double_pair(const double *P) { return P[0] + P[1]; }

void opaque(void);

// A call between the two may synchronise: no pair.
// CHECK-LABEL: define {{.*}}@call_between(
// CHECK-NOT:  _pair(
// CHECK:      ret float
float call_between(const float *P) { return P[0] + (opaque(), P[1]); }

// An atomic between them orders: no pair.
// CHECK-LABEL: define {{.*}}@atomic_between(
// CHECK-NOT:  _pair(
// CHECK:      ret float
float atomic_between(const float *P, int *Flag) {
  return P[0] + (__atomic_load_n(Flag, __ATOMIC_ACQUIRE), P[1]);
}

// A write between two reads may change what the second finds: no pair.
// CHECK-LABEL: define {{.*}}@write_between(
// CHECK-NOT:  _pair(
// CHECK:      ret float
float write_between(float *P, float *Q) { return P[0] + (*Q = 1, P[1]); }

// Two lines: a report names a pair by its first line, so no pair; without
// debug information there are no lines to tell apart.
// CHECK-LABEL: define {{.*}}@two_lines(
// CHECK-NOT:  _pair(
// CHECK:      ret float
// NOLINES-LABEL: define {{.*}}@two_lines(
// NOLINES:    call void @__hrace_read4_pair(
float two_lines(const float *P) {
  float A = P[0];
  float B = P[1];
  return A + B;
}

// Not adjacent: no pair.
// CHECK-LABEL: define {{.*}}@gap(
// CHECK-NOT:  _pair(
// CHECK:      ret float
float gap(const float *P) { return P[0] + P[2]; }

// Volatile accesses are each their own.
// CHECK-LABEL: define {{.*}}@volatile_pair(
// CHECK-NOT:  _pair(
// CHECK:      ret float
float volatile_pair(volatile float *P) { return P[0] + P[1]; }
