// Vector loads and stores are instrumented like scalars of their store size:
// 8- and 16-byte vectors use the fixed-size entry points, aligned or not.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

typedef int v4i32 __attribute__((vector_size(16)));
typedef short v4i16 __attribute__((vector_size(8)));
typedef int v4i32_align4 __attribute__((vector_size(16), aligned(4)));

// CHECK-LABEL: define {{.*}}@add_v4i32(
// CHECK:      call void @__hrace_read16(
// CHECK-NEXT: load <4 x i32>,
// CHECK:      call void @__hrace_read16(
// CHECK-NEXT: load <4 x i32>,
// CHECK:      call void @__hrace_write16(
// CHECK-NEXT: store <4 x i32>
void add_v4i32(v4i32 *dst, v4i32 *a, v4i32 *b) { *dst = *a + *b; }

// CHECK-LABEL: define {{.*}}@copy_v4i16(
// CHECK:      call void @__hrace_read8(
// CHECK-NEXT: load <4 x i16>,
// CHECK:      call void @__hrace_write8(
// CHECK-NEXT: store <4 x i16>
void copy_v4i16(v4i16 *dst, v4i16 *src) { *dst = *src; }

// CHECK-LABEL: define {{.*}}@copy_underaligned(
// CHECK:      call void @__hrace_unaligned_read16(
// CHECK-NEXT: load <4 x i32>, {{.*}}, align 4
// CHECK:      call void @__hrace_unaligned_write16(
// CHECK-NEXT: store <4 x i32> {{.*}}, align 4
void copy_underaligned(v4i32_align4 *dst, v4i32_align4 *src) { *dst = *src; }
