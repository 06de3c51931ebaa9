// Functions marked disable_sanitizer_instrumentation, naked functions and the
// runtime's own __hrace* functions are left exactly as they are: no access
// calls and no shadow frame.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

int shared;
void callee(void);

// CHECK-LABEL: define {{.*}}@not_sanitized(
// CHECK-NOT:  call {{.*}}@__hrace_
// CHECK:      ret void
__attribute__((disable_sanitizer_instrumentation)) void not_sanitized(void) {
  shared = 1;
  callee();
}

// CHECK-LABEL: define {{.*}}@naked(
// CHECK-NOT:  call {{.*}}@__hrace_
// CHECK:      unreachable
__attribute__((naked)) void naked(void) { __asm__("ret"); }

// CHECK-LABEL: define {{.*}}@__hrace_helper(
// CHECK-NOT:  call {{.*}}@__hrace_
// CHECK:      ret void
void __hrace_helper(void) {
  shared = 2;
  callee();
}

// The same body in an ordinary function is instrumented.
// CHECK-LABEL: define {{.*}}@sanitized(
// CHECK:      call void @__hrace_func_entry(
// CHECK:      call void @__hrace_write4(
// CHECK:      call void @__hrace_func_exit()
void sanitized(void) {
  shared = 1;
  callee();
}
