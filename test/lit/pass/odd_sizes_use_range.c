// Accesses of any size other than 1, 2, 4, 8 or 16 bytes call the range
// entry points with the number of bytes the access stores (its store size):
// 3 for an i24, 10 for an x86 long double, 32 for a 256-bit vector.
// vectors_without_fixed_size_use_range.ll has the IR-only cases.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}}@copy_i24(
// CHECK:      call void @__hrace_read_range({{.*}}, i64 3)
// CHECK-NEXT: load i24,
// CHECK:      call void @__hrace_write_range({{.*}}, i64 3)
// CHECK-NEXT: store i24
struct __attribute__((packed)) ThreeBytes {
  unsigned value : 24;
};
void copy_i24(struct ThreeBytes *dst, struct ThreeBytes *src) {
  dst->value = src->value;
}

// CHECK-LABEL: define {{.*}}@copy_long_double(
// CHECK:      call void @__hrace_read_range({{.*}}, i64 10)
// CHECK-NEXT: load x86_fp80,
// CHECK:      call void @__hrace_write_range({{.*}}, i64 10)
// CHECK-NEXT: store x86_fp80
void copy_long_double(long double *dst, long double *src) { *dst = *src; }

// CHECK-LABEL: define {{.*}}@copy_v8i32(
// CHECK:      call void @__hrace_read_range({{.*}}, i64 32)
// CHECK-NEXT: load <8 x i32>,
// CHECK:      call void @__hrace_write_range({{.*}}, i64 32)
// CHECK-NEXT: store <8 x i32>
typedef int v8i32 __attribute__((vector_size(32)));
void copy_v8i32(v8i32 *dst, v8i32 *src) { *dst = *src; }
