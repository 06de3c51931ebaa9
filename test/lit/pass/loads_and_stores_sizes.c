// Plain loads and stores of 1, 2, 4, 8 and 16 bytes call the runtime entry
// point of that size right before the access, with the accessed address.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}}@copy1(
// CHECK:      call void @__hrace_read1(
// CHECK-NEXT: load i8,
// CHECK:      call void @__hrace_write1(
// CHECK-NEXT: store i8
void copy1(char *dst, char *src) { *dst = *src; }

// CHECK-LABEL: define {{.*}}@copy2(
// CHECK:      call void @__hrace_read2(
// CHECK-NEXT: load i16,
// CHECK:      call void @__hrace_write2(
// CHECK-NEXT: store i16
void copy2(short *dst, short *src) { *dst = *src; }

// CHECK-LABEL: define {{.*}}@copy4(
// CHECK:      call void @__hrace_read4(
// CHECK-NEXT: load float,
// CHECK:      call void @__hrace_write4(
// CHECK-NEXT: store float
void copy4(float *dst, float *src) { *dst = *src; }

// CHECK-LABEL: define {{.*}}@copy8(
// CHECK:      call void @__hrace_read8(
// CHECK-NEXT: load i64,
// CHECK:      call void @__hrace_write8(
// CHECK-NEXT: store i64
void copy8(long *dst, long *src) { *dst = *src; }

// CHECK-LABEL: define {{.*}}@copy16(
// CHECK:      call void @__hrace_read16(
// CHECK-NEXT: load i128,
// CHECK:      call void @__hrace_write16(
// CHECK-NEXT: store i128
void copy16(__int128 *dst, __int128 *src) { *dst = *src; }

// The address passed is the accessed one, not the base of the object.
// CHECK-LABEL: define {{.*}}@store_at_offset(
// CHECK:      [[ADDR:%[0-9a-z.]+]] = getelementptr inbounds {{.*}}i8, {{.*}} 5
// CHECK-NEXT: call void @__hrace_write1({{.*}}[[ADDR]])
// CHECK-NEXT: store i8 7, {{.*}}[[ADDR]]
void store_at_offset(char *bytes) { bytes[5] = 7; }
