; A swifterror slot may only be loaded, stored or passed as a swifterror
; argument, never to the runtime, so its accesses are not instrumented even
; though its address goes to a call.
; RUN: %opt -passes=hrace,verify -S %s | FileCheck %s

declare void @may_fail(i8** swifterror)

define i8* @call_may_fail() {
; CHECK-LABEL: define {{.*}}@call_may_fail(
; CHECK-NOT:  call void @__hrace_{{read|write}}
; CHECK:      ret
  %error = alloca swifterror i8*, align 8
  store i8* null, i8** %error, align 8
  call void @may_fail(i8** swifterror %error)
  %result = load i8*, i8** %error, align 8
  ret i8* %result
}
