// On x86-64, an aligned access of up to 8 bytes first makes the runtime's
// no-op test inline: it loads both cells of its granule (at 0x580000000000
// + ((addr << 1) & 0x1ffffffffff0)), takes the one that holds its bytes,
// and calls the entry point only when neither of the thread's two tests
// for its kind (__hrace_inline_test) passes; the access follows either
// way. So do 16 bytes aligned to 8 or more, on both of their granules.
// Other unaligned accesses, and every access on AArch64, call the runtime
// as before.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=CALLS
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=CALLS

// The thread's tests are initial-exec TLS of the runtime's.
// CHECK: @__hrace_inline_test = external thread_local(initialexec) global [8 x i64]
// The spread masks of 1-byte accesses, one per offset in the granule.
// CHECK: @__hrace_spread_masks1 = private unnamed_addr constant [8 x i64] [i64 1073741824, i64 2147483648, i64 4294967296, i64 8589934592, i64 1152921504606846976, i64 2305843009213693952, i64 4611686018427387904, i64 -9223372036854775808]

// A read: the two read tests at [0..3], the granule's two cells and the
// one holding the bytes. (Slot k prints as element k of the array, or as
// byte 8k on the LLVMs that fold constant GEPs to bytes.)
// CHECK-LABEL: define {{.*}}@read4(
// CHECK:      %[[A:[0-9]+]] = ptrtoint {{.*}} to i64
// CHECK-NEXT: %[[SHIFTED:[0-9]+]] = shl i64 %[[A]], 1
// CHECK-NEXT: %[[INDEX:[0-9]+]] = and i64 %[[SHIFTED]], 35184372088816
// CHECK-NEXT: %[[FIRST:[0-9]+]] = add i64 %[[INDEX]], 96757023244288
// A 4-byte access is in either half of its granule.
// CHECK:      %[[SPREAD:[0-9]+]] = select i1 %{{[0-9]+}}, i64 16106127360, i64 -1152921504606846976
// CHECK-NEXT: %[[M0:[0-9]+]] = load i64, {{.*}}@__hrace_inline_test{{(, i64 0, i64 0\))?}}, align 8
// CHECK-NEXT: %[[V0:[0-9]+]] = load i64, {{.*}}@__hrace_inline_test, i64 {{(0, i64 1|8)}}), align 8
// CHECK-NEXT: %[[M1:[0-9]+]] = load i64, {{.*}}@__hrace_inline_test, i64 {{(0, i64 2|16)}}), align 8
// CHECK-NEXT: %[[V1:[0-9]+]] = load i64, {{.*}}@__hrace_inline_test, i64 {{(0, i64 3|24)}}), align 8
// CHECK:      %[[C0:[0-9]+]] = load atomic i64, {{.*}} monotonic, align 8
// CHECK:      add i64 %[[FIRST]], 8
// CHECK:      %[[C1:[0-9]+]] = load atomic i64, {{.*}} monotonic, align 8
// CHECK-NEXT: %[[HELD0:[0-9]+]] = and i64 %[[C0]], %[[SPREAD]]
// CHECK-NEXT: %[[IN0:[0-9]+]] = icmp eq i64 %[[HELD0]], %[[SPREAD]]
// CHECK-NEXT: %[[CELL:[0-9]+]] = select i1 %[[IN0]], i64 %[[C0]], i64 %[[C1]]
// Each condition is the bits that are wrong, zero when it holds: the bytes
// the cell lacks, and the fewer wrong bits of the two tests (their unsigned
// minimum is zero when either test passes). One compare with zero decides.
// CHECK-NEXT: %[[HELD:[0-9]+]] = and i64 %[[CELL]], %[[SPREAD]]
// CHECK-NEXT: %[[LACKS:[0-9]+]] = xor i64 %[[HELD]], %[[SPREAD]]
// CHECK-NEXT: %[[AND0:[0-9]+]] = and i64 %[[CELL]], %[[M0]]
// CHECK-NEXT: %[[WRONG0:[0-9]+]] = xor i64 %[[AND0]], %[[V0]]
// CHECK-NEXT: %[[AND1:[0-9]+]] = and i64 %[[CELL]], %[[M1]]
// CHECK-NEXT: %[[WRONG1:[0-9]+]] = xor i64 %[[AND1]], %[[V1]]
// CHECK-NEXT: %[[LEAST:[0-9]+]] = call i64 @llvm.umin.i64(i64 %[[WRONG0]], i64 %[[WRONG1]])
// CHECK-NEXT: %[[WRONG:[0-9]+]] = or i64 %[[LACKS]], %[[LEAST]]
// CHECK-NEXT: %[[CALL_IT:[0-9]+]] = icmp ne i64 %[[WRONG]], 0
// CHECK-NEXT: br i1 %[[CALL_IT]], label %[[CALL:[0-9]+]], label %[[ACCESS:[0-9]+]], !prof
// CHECK:      [[CALL]]:
// CHECK-NEXT: call void @__hrace_read4(
// CHECK-NEXT: br label %[[ACCESS]]
// CHECK:      [[ACCESS]]:
// CHECK-NEXT: load i32, {{.*}}%p
// CALLS-LABEL: define {{.*}}@read4(
// CALLS-NOT:  __hrace_inline_test
// CALLS:      call void @__hrace_read4(
// CALLS-NEXT: load i32,
int read4(int *p) { return *p; }

// A write tests [4..7]; 8 bytes cover the whole granule.
// CHECK-LABEL: define {{.*}}@write8(
// CHECK:      load i64, {{.*}}@__hrace_inline_test, i64 {{(0, i64 4|32)}}), align 8
// CHECK-NEXT: load i64, {{.*}}@__hrace_inline_test, i64 {{(0, i64 5|40)}}), align 8
// CHECK-NEXT: load i64, {{.*}}@__hrace_inline_test, i64 {{(0, i64 6|48)}}), align 8
// CHECK-NEXT: load i64, {{.*}}@__hrace_inline_test, i64 {{(0, i64 7|56)}}), align 8
// CHECK:      and i64 %{{[0-9]+}}, -1152921488500719616
// CHECK:      call void @__hrace_write8(
// CHECK:      store i64 %v, {{.*}}%p
void write8(long *p, long v) { *p = v; }

// CHECK-LABEL: define {{.*}}@write1(
// CHECK:      and i64 %{{.*}}, 7
// CHECK:      getelementptr inbounds [8 x i64], {{.*}}@__hrace_spread_masks1, i64 0, i64 %
// CHECK:      call void @__hrace_write1(
// CHECK:      store i8
void write1(char *p, char v) { *p = v; }

// No inline test where the runtime splits the access over granules.
struct __attribute__((packed)) Packed {
  char c;
  int i;
};
// CHECK-LABEL: define {{.*}}@unaligned(
// CHECK-NOT:  __hrace_inline_test
// CHECK:      call void @__hrace_unaligned_read4(
// CHECK-NEXT: load i32,
int unaligned(struct Packed *p) { return p->i; }

// 16 bytes aligned to 8 or more cover two whole granules, 16 bytes of
// cells apart: both must pass.
// CHECK-LABEL: define {{.*}}@read16(
// CHECK:      %[[G0:[0-9]+]] = add i64 %{{[0-9]+}}, 96757023244288
// CHECK:      load atomic i64, {{.*}} monotonic, align 8
// CHECK:      add i64 %[[G0]], 8
// CHECK:      %[[WRONG0:[0-9]+]] = or i64
// CHECK:      add i64 %[[G0]], 16
// CHECK:      add i64 %[[G0]], 24
// CHECK:      %[[WRONG1:[0-9]+]] = or i64
// CHECK-NEXT: %[[EITHER:[0-9]+]] = or i64 %[[WRONG0]], %[[WRONG1]]
// CHECK-NEXT: icmp ne i64 %[[EITHER]], 0
// CHECK:      call void @__hrace_read16(
// CHECK:      load i128,
__int128 read16(__int128 *p) { return *p; }

// CHECK-LABEL: define {{.*}}@read16_aligned_to_8(
// CHECK:      load atomic i64,
// CHECK:      call void @__hrace_unaligned_read16(
// CHECK:      load <2 x double>,
typedef double double2 __attribute__((vector_size(16), aligned(8)));
double2 read16_aligned_to_8(double2 *p) { return *p; }

// Below 8, the bytes may be in three granules.
typedef double double2_4 __attribute__((vector_size(16), aligned(4)));
// CHECK-LABEL: define {{.*}}@read16_aligned_to_4(
// CHECK-NOT:  __hrace_inline_test
// CHECK:      call void @__hrace_unaligned_read16(
// CHECK-NEXT: load <2 x double>,
double2_4 read16_aligned_to_4(double2_4 *p) { return *p; }
