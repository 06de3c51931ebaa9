// The marks point at the start of the loop. The verifier requires a location
// on every call in a function with debug info once the callee has debug info
// itself, as a runtime linked by LTO would; the stubs below stand in for it
// (and are left out where clang would inline them).
// RUN: %clang --target=x86_64-linux-gnu -g -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes=hrace,verify -S %t.ll | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -g -O2 -DNO_STUBS -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O2

#include <pthread.h>

#ifndef NO_STUBS
void __hrace_wait_loop_enter(void *cv, void *mutex) {}
void __hrace_wait_loop_exit(void *cv, void *mutex) {}
void __hrace_func_entry(void *caller_pc) {}
void __hrace_func_exit(void) {}
void __hrace_read4(void *addr) {}
#endif

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

// CHECK-LABEL: define {{.*}}@wait_ready(
// CHECK:       call void @__hrace_wait_loop_enter({{.*}}), !dbg [[LOOP:![0-9]+]]
// CHECK:       call void @__hrace_wait_loop_exit({{.*}}), !dbg [[LOOP]]
// CHECK:       [[LOOP]] = !DILocation(line: [[@LINE+6]], column: 3,
// O2-LABEL:    define {{.*}}@wait_ready(
// O2:          call void @__hrace_wait_loop_enter({{.*}}), !dbg [[LOOP:![0-9]+]]
// O2:          call void @__hrace_wait_loop_exit({{.*}}), !dbg [[LOOP]]
// O2:          [[LOOP]] = !DILocation(line: [[@LINE+2]], column: 3,
void wait_ready(void) {
  while (!ready)
    pthread_cond_wait(&cv, &mu);
}
