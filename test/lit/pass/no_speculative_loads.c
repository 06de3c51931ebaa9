// A load under a branch must stay under the branch: hoisted or turned into a
// select, it becomes an instrumented access the program never made. The
// plugin marks instrumented functions sanitize_thread at the start of the
// pipeline, which keeps LLVM's passes from speculating loads and stores;
// functions with disable_sanitizer_instrumentation are left as they are.
//
// RUN: %clang --target=x86_64-linux-gnu -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

int Slot[2];

// CHECK: define{{.*}} @sum_if_last({{.*}}) {{.*}}[[ATTRS:#[0-9]+]] {
int sum_if_last(int Arrived) {
  // CHECK: br i1
  // CHECK: call void @__hrace_read4
  if (Arrived == 1)
    return Slot[0] + Slot[1];
  return 0;
}

// CHECK: define{{.*}} @not_instrumented({{.*}}) {{.*}}[[PLAIN:#[0-9]+]] {
__attribute__((disable_sanitizer_instrumentation)) int not_instrumented(void) {
  return Slot[0];
}

// CHECK: attributes [[ATTRS]] = {{{.*}}sanitize_thread
// CHECK-NOT: attributes [[PLAIN]] = {{{.*}}sanitize_thread
