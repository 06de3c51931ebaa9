; LLVM's unordered and monotonic orderings both promise atomicity only: the
; runtime sees them as relaxed (0).
; RUN: %opt -passes=hrace -S %s | FileCheck %s "--implicit-check-not=call void @__hrace_read" "--implicit-check-not=call void @__hrace_write"

define i32 @unordered(i32* %p) {
; CHECK-LABEL: define i32 @unordered(
; CHECK:      call void @__hrace_atomic_store4({{.*}}, i64 1, i32 0)
; CHECK:      call i64 @__hrace_atomic_load4({{.*}}, i32 0)
  store atomic i32 1, i32* %p unordered, align 4
  %v = load atomic i32, i32* %p unordered, align 4
  ret i32 %v
}

; A double travels as its bits.
define double @atomic_double(double* %p) {
; CHECK-LABEL: define double @atomic_double(
; CHECK:      [[BITS:%[0-9a-z.]+]] = call i64 @__hrace_atomic_load8({{.*}}, i32 2)
; CHECK-NEXT: bitcast i64 [[BITS]] to double
  %v = load atomic double, double* %p acquire, align 8
  ret double %v
}

; A misaligned atomic (a library call, not an instruction) stays in the
; program, bracketed by the calls that name its size.
define i32 @misaligned(i32* %p) {
; CHECK-LABEL: define i32 @misaligned(
; CHECK:      load atomic i32, {{.*}} seq_cst, align 2
; CHECK-NEXT: call void @__hrace_atomic_load({{.*}}, i64 4, i32 5)
  %v = load atomic i32, i32* %p seq_cst, align 2
  ret i32 %v
}

; So does a 16-byte one: the runtime performs 1, 2, 4 and 8 bytes.
define i1 @wide_exchange(i128* %p, i128 %expected) {
; CHECK-LABEL: define i1 @wide_exchange(
; CHECK:      call void @__hrace_atomic_rmw_begin({{.*}}, i64 16, i32 5)
; CHECK-NEXT: [[PAIR:%[0-9a-z.]+]] = cmpxchg {{.*}} seq_cst monotonic
; CHECK-NEXT: [[EXCHANGED:%[0-9a-z.]+]] = extractvalue { i128, i1 } [[PAIR]], 1
; CHECK-NEXT: [[ORDER:%[0-9a-z.]+]] = select i1 [[EXCHANGED]], i32 5, i32 0
; CHECK-NEXT: call void @__hrace_atomic_rmw_end({{.*}}, i64 16, i32 [[ORDER]])
  %pair = cmpxchg i128* %p, i128 %expected, i128 1 seq_cst monotonic, align 16
  %ok = extractvalue { i128, i1 } %pair, 1
  ret i1 %ok
}
