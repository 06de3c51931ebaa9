// Volatile loads and stores are plain accesses to the race detector: they
// are reported like any other, and the volatile access itself is kept.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

volatile int flag;

// CHECK-LABEL: define {{.*}}@spin(
// CHECK:      call void @__hrace_read4({{.*}}@flag
// CHECK-NEXT: load volatile i32, {{.*}}@flag
// CHECK:      call void @__hrace_write4({{.*}}@flag
// CHECK-NEXT: store volatile i32 0, {{.*}}@flag
void spin(void) {
  while (!flag)
    ;
  flag = 0;
}

// CHECK-LABEL: define {{.*}}@write_through(
// CHECK:      call void @__hrace_write8(
// CHECK-NEXT: store volatile i64 1,
void write_through(volatile long *p) { *p = 1; }
