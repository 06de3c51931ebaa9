// An access whose alignment is below its size calls the unaligned entry
// point of that size; a 1-byte access is always aligned.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

struct __attribute__((packed)) Packed {
  char c;
  short s;
  int i;
  long l;
  __int128 q;
};

// CHECK-LABEL: define {{.*}}@read_packed(
// CHECK:      call void @__hrace_read1(
// CHECK-NEXT: load i8, {{.*}}, align 1
// CHECK:      call void @__hrace_unaligned_read2(
// CHECK-NEXT: load i16, {{.*}}, align 1
// CHECK:      call void @__hrace_unaligned_read4(
// CHECK-NEXT: load i32, {{.*}}, align 1
// CHECK:      call void @__hrace_unaligned_read8(
// CHECK-NEXT: load i64, {{.*}}, align 1
// CHECK:      call void @__hrace_unaligned_read16(
// CHECK-NEXT: load i128, {{.*}}, align 1
long read_packed(struct Packed *p) { return p->c + p->s + p->i + p->l + p->q; }

// CHECK-LABEL: define {{.*}}@write_packed(
// CHECK:      call void @__hrace_write1(
// CHECK-NEXT: store i8 1, {{.*}}, align 1
// CHECK:      call void @__hrace_unaligned_write2(
// CHECK-NEXT: store i16 2, {{.*}}, align 1
// CHECK:      call void @__hrace_unaligned_write4(
// CHECK-NEXT: store i32 3, {{.*}}, align 1
// CHECK:      call void @__hrace_unaligned_write8(
// CHECK-NEXT: store i64 4, {{.*}}, align 1
// CHECK:      call void @__hrace_unaligned_write16(
// CHECK-NEXT: store i128 5, {{.*}}, align 1
void write_packed(struct Packed *p) {
  p->c = 1;
  p->s = 2;
  p->i = 3;
  p->l = 4;
  p->q = 5;
}

// Alignment at least the size is aligned, even for a 16-byte access.
// CHECK-LABEL: define {{.*}}@read_aligned16(
// CHECK:      call void @__hrace_read16(
// CHECK-NEXT: load i128, {{.*}}, align 16
__int128 read_aligned16(__int128 *p) { return *p; }
