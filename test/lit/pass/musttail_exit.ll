; Nothing may come between a musttail call and its return, so the frame is
; popped just before the musttail call.
; RUN: %opt -passes=hrace,verify -S %s | FileCheck %s

@shared = global i32 0

declare i32 @next(i32)

define i32 @forward(i32 %x) {
; CHECK-LABEL: define i32 @forward(
; CHECK:      call void @__hrace_func_entry(
; CHECK:      call void @__hrace_write4(
; CHECK:      call void @__hrace_func_exit()
; CHECK-NEXT: musttail call i32 @next(i32 %x)
; CHECK-NEXT: ret i32
  store i32 %x, i32* @shared, align 4
  %r = musttail call i32 @next(i32 %x)
  ret i32 %r
}
