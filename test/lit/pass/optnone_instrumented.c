// The pass is required: it also instruments optnone functions, which the
// pass manager otherwise skips. At -O0 clang marks every function optnone.
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}}@unoptimised(
// CHECK-SAME: #[[ATTRS:[0-9]+]]
// CHECK:      call void @__hrace_func_entry(
// CHECK:      call void @__hrace_write4(
// CHECK-NEXT: store i32 1,
// CHECK:      call void @__hrace_func_exit()
// CHECK:      attributes #[[ATTRS]] = { {{.*}}optnone
__attribute__((optnone, noinline)) void unoptimised(int *p) { *p = 1; }
