// The runtime takes generic pointers: accesses through other address spaces
// (here x86's %gs-relative one) are not instrumented.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}}@gs_relative(
// CHECK-NOT:  call void @__hrace_{{read|write}}
// CHECK:      load i32, {{.*}} addrspace(256){{.*}}
// CHECK-NOT:  call void @__hrace_{{read|write}}
// CHECK:      ret i32
int gs_relative(int __attribute__((address_space(256))) * p) { return *p; }

// CHECK-LABEL: define {{.*}}@generic(
// CHECK:      call void @__hrace_read4(
// CHECK-NEXT: load i32,
int generic(int *p) { return *p; }
