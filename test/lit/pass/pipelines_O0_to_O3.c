// The plugin adds the pass to clang's default pipeline at every optimisation
// level, -O0 included, and the module gets its runtime constructor each time.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O3 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -Os -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

int shared;

// CHECK:      @llvm.global_ctors = {{.*}}@hrace.module_ctor
// CHECK-LABEL: define {{.*}}@set_shared(
// CHECK:      call void @__hrace_func_entry(
// CHECK:      call void @__hrace_write4({{.*}}@shared
// CHECK-NEXT: store i32 {{.*}}@shared
// CHECK:      call void @__hrace_func_exit()
// CHECK-NEXT: ret void
void set_shared(int value) { shared = value; }
