// An instrumented function pushes a shadow frame on entry, passing its
// return address, and pops it on every way out: each return, and exceptions
// unwinding through it, for which calls that may throw become invokes with a
// cleanup pad. The same holds with and without optimisation.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

void may_throw();
int shared;

// CHECK-LABEL: define {{.*}}@_Z15calls_may_throwi(
// CHECK:      [[CALLER_PC:%[0-9a-z.]+]] = call {{.*}}@llvm.returnaddress(i32 0)
// CHECK-NEXT: call void @__hrace_func_entry({{.*}}[[CALLER_PC]])
// CHECK:      invoke void @_Z9may_throwv()
// CHECK-NEXT:   to label %[[RETURNED:[0-9a-z.]+]] unwind label %[[UNWINDING:[0-9a-z.]+]]
// CHECK:      {{^}}[[RETURNED]]:
// CHECK:      call void @__hrace_func_exit()
// CHECK-NEXT: ret i32
// CHECK:      {{^}}[[UNWINDING]]:
// CHECK-NEXT: landingpad
// CHECK-NEXT:   cleanup
// CHECK-NEXT: call void @__hrace_func_exit()
// CHECK-NEXT: resume
int calls_may_throw(int value) {
  shared = value;
  may_throw();
  return shared;
}

// A caught exception ends in a normal return, which pops the frame.
// CHECK-LABEL: define {{.*}}@_Z7catchesv(
// CHECK:      call void @__hrace_func_entry(
// CHECK:      landingpad
// CHECK-NEXT:   catch
// CHECK:      call void @__hrace_func_exit()
// CHECK-NEXT: ret i32
int catches() {
  try {
    may_throw();
  } catch (...) {
    return 1;
  }
  return 0;
}

// A function that makes no runtime call and calls nothing never shows up in
// a report's stack and gets no frame.
// CHECK-LABEL: define {{.*}}@_Z4leafii(
// CHECK-NOT:  call {{.*}}@__hrace_
// CHECK:      ret i32
int leaf(int a, int b) { return a * b; }
