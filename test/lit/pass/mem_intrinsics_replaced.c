// llvm.memcpy, llvm.memmove and llvm.memset (and their .inline forms) are
// replaced by the runtime's __hrace_memcpy/memmove/memset, which check the
// whole ranges and then do the operation. The value of a memset is passed as
// an int, the length as a uintptr_t.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s "--implicit-check-not=call void @llvm.memcpy" "--implicit-check-not=call void @llvm.memmove"

// CHECK-LABEL: define {{.*}}@copy(
// CHECK: call {{.*}}@__hrace_memcpy({{.*}}, {{.*}}, i64 %{{[0-9a-z.]+}})
void copy(char *dst, const char *src, unsigned long n) {
  __builtin_memcpy(dst, src, n);
}

// CHECK-LABEL: define {{.*}}@move(
// CHECK: call {{.*}}@__hrace_memmove({{.*}}, {{.*}}, i64 %{{[0-9a-z.]+}})
void move(char *dst, const char *src, unsigned long n) {
  __builtin_memmove(dst, src, n);
}

// CHECK-LABEL: define {{.*}}@fill(
// CHECK:      [[BYTE:%[0-9a-z.]+]] = trunc i32 %{{[0-9a-z.]+}} to i8
// CHECK-NEXT: [[VALUE:%[0-9a-z.]+]] = zext i8 [[BYTE]] to i32
// CHECK-NEXT: call {{.*}}@__hrace_memset({{.*}}, i32 [[VALUE]], i64 %{{[0-9a-z.]+}})
// CHECK-NOT:  call void @llvm.memset
void fill(char *dst, int c, unsigned long n) { __builtin_memset(dst, c, n); }

// Struct copies and zeroing are memory intrinsics too.
struct Big {
  long words[16];
};

// CHECK-LABEL: define {{.*}}@assign(
// CHECK: call {{.*}}@__hrace_memcpy({{.*}}, {{.*}}, i64 128)
void assign(struct Big *dst, struct Big *src) { *dst = *src; }

// CHECK-LABEL: define {{.*}}@zero(
// CHECK:     call {{.*}}@__hrace_memset({{.*}}, i32 0, i64 128)
// CHECK-NOT: call void @llvm.memset
void zero(struct Big *dst) { *dst = (struct Big){0}; }

// CHECK-LABEL: define {{.*}}@copy_inline(
// CHECK: call {{.*}}@__hrace_memcpy({{.*}}, {{.*}}, i64 24)
void copy_inline(char *dst, const char *src) {
  __builtin_memcpy_inline(dst, src, 24);
}

// A memset of a buffer no other thread can see stays an intrinsic.
// CHECK-LABEL: define {{.*}}@private_buffer(
// CHECK:      call void @llvm.memset
// CHECK-NOT:  call {{.*}}@__hrace_
// CHECK:      ret i8
char private_buffer(int c, unsigned i) {
  char buffer[64];
  __builtin_memset(buffer, c, sizeof buffer);
  return buffer[i % sizeof buffer];
}
