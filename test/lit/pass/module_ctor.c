// Each instrumented module gets one internal constructor, hrace.module_ctor,
// that calls __hrace_init with priority 0, ahead of the program's own
// constructors, and is not instrumented itself. The constructor also marks
// the module as instrumented: running the pass again changes nothing.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %opt -passes=hrace -S %t.ll | FileCheck %s

int shared;

// CHECK:      @llvm.global_ctors = appending global [2 x {{.*}}] [{{.*}} { i32 65535, {{.*}}@user_ctor{{.*}} }, {{.*}} { i32 0, {{.*}}@hrace.module_ctor{{.*}} }]
void setup(void);
__attribute__((constructor)) void user_ctor(void) { setup(); }

// CHECK-LABEL: define {{.*}}@set_shared(
// CHECK:      call void @__hrace_write4(
// CHECK-NOT:  call void @__hrace_write4(
// CHECK:      ret void
void set_shared(int value) { shared = value; }

// CHECK-LABEL: define internal void @hrace.module_ctor()
// CHECK-NEXT: call void @__hrace_init()
// CHECK-NEXT: ret void
// CHECK-NOT:  define internal void @hrace.module_ctor
