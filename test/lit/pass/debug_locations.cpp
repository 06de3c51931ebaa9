// In a function with debug info every call the pass inserts has a location:
// the instrumented instruction's, or line 0 of the function for the frame
// calls and the cleanup pad it adds. The verifier requires one whenever the
// callee has debug info itself, as a runtime linked by LTO would; the stubs
// below stand in for it.
// RUN: %clang --target=x86_64-linux-gnu -g -O1 -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=hrace,verify -S %t.ll | FileCheck %s

extern "C" {
void __hrace_func_entry(void *caller_pc) {}
void __hrace_func_exit(void) {}
void __hrace_read4(void *addr) {}
void __hrace_write4(void *addr) {}
unsigned long __hrace_atomic_rmw4(void *addr, unsigned long v, int op,
                                  int order) {
  return 0;
}
}

void may_throw();
int shared;

// CHECK-LABEL: define {{.*}}@_Z6updatev(
// CHECK-SAME: !dbg [[UPDATE:![0-9]+]]
// CHECK:      call void @__hrace_func_entry({{.*}}), !dbg [[FUNCTION_LOC:![0-9]+]]
// The inline no-op test (x86-64), the call it guards and the access share
// the access's location.
// CHECK:      load atomic i64, {{.*}}, !dbg [[READ_LOC:![0-9]+]]
// CHECK:      call void @__hrace_read4({{.*}}), !dbg [[READ_LOC]]
// CHECK:      load i32, {{.*}}, !dbg [[READ_LOC]]
// CHECK:      load atomic i64, {{.*}}, !dbg [[WRITE_LOC:![0-9]+]]
// CHECK:      call void @__hrace_write4({{.*}}), !dbg [[WRITE_LOC]]
// CHECK:      store i32 {{.*}}, !dbg [[WRITE_LOC]]
// CHECK:      call i64 @__hrace_atomic_rmw4({{.*}}), !dbg [[RMW_LOC:![0-9]+]]
// CHECK:      call void @__hrace_func_exit(), !dbg
// CHECK-NEXT: ret void
// CHECK:      landingpad
// CHECK-NEXT:   cleanup
// CHECK-NEXT: call void @__hrace_func_exit(), !dbg [[FUNCTION_LOC]]
// CHECK-NEXT: resume
void update() {
  shared = shared + 1;
  __atomic_fetch_add(&shared, 1, __ATOMIC_RELAXED);
  may_throw();
}

// CHECK-DAG: [[FUNCTION_LOC]] = !DILocation(line: 0, scope: [[UPDATE]])
// CHECK-DAG: [[RMW_LOC]] = !DILocation(line: 43,
