; LLVM's unordered and monotonic orderings both promise atomicity only: the
; runtime sees them as relaxed (0).
; RUN: %opt -passes=hrace -S %s | FileCheck %s "--implicit-check-not=call void @__hrace_read" "--implicit-check-not=call void @__hrace_write"

define i32 @unordered(i32* %p) {
; CHECK-LABEL: define i32 @unordered(
; CHECK:      call void @__hrace_atomic_store({{.*}}, i64 4, i32 0)
; CHECK-NEXT: store atomic i32 1, {{.*}} unordered
; CHECK:      load atomic i32, {{.*}} unordered
; CHECK-NEXT: call void @__hrace_atomic_load({{.*}}, i64 4, i32 0)
  store atomic i32 1, i32* %p unordered, align 4
  %v = load atomic i32, i32* %p unordered, align 4
  ret i32 %v
}

; Atomics of any type are reported with their store size.
define double @atomic_double(double* %p) {
; CHECK-LABEL: define double @atomic_double(
; CHECK:      load atomic double, {{.*}} acquire
; CHECK-NEXT: call void @__hrace_atomic_load({{.*}}, i64 8, i32 2)
  %v = load atomic double, double* %p acquire, align 8
  ret double %v
}
