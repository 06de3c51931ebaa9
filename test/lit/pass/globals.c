// Globals are shared by all threads and their accesses are instrumented,
// except reads of constant data (never written, so no race) and the globals
// of the runtime (__hrace*), of LLVM (llvm.*) and of coverage and profiling.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

int mutable_global;
const int constant_table[4] = {1, 2, 3, 5};
const char *const message = "hello";
int __hrace_runtime_state;
int __profc_counter;
int __llvm_gcov_ctr;

// CHECK-LABEL: define {{.*}}@update_mutable(
// CHECK:      call void @__hrace_read4({{.*}}@mutable_global
// CHECK-NEXT: load i32, {{.*}}@mutable_global
// CHECK:      call void @__hrace_write4({{.*}}@mutable_global
// CHECK-NEXT: store i32 {{.*}}@mutable_global
void update_mutable(void) { mutable_global++; }

// The loads stay (the index is not a constant) but are not reported.
// CHECK-LABEL: define {{.*}}@read_constants(
// CHECK-NOT:  call void @__hrace_read
// CHECK:      getelementptr {{.*}}@constant_table
// CHECK-NEXT: load i32,
// CHECK-NOT:  call void @__hrace_read
// CHECK:      getelementptr {{.*}}@.str
// CHECK-NEXT: load i8,
// CHECK-NOT:  call void @__hrace_read
// CHECK:      ret i32
int read_constants(int i) {
  return constant_table[i & 3] + message[i & 3];
}

// CHECK-LABEL: define {{.*}}@tool_globals(
// CHECK-NOT:  call void @__hrace_write
// CHECK:      ret void
void tool_globals(void) {
  __hrace_runtime_state = 1;
  __profc_counter = 1;
  __llvm_gcov_ctr = 1;
}
