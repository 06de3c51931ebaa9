; The wait loops are marked once per module: by hrace-wait-loops, which
; clang runs at the start of the pipeline, or else by hrace itself before it
; instruments. The mutex a mark reads out of a std::unique_lock is the tool's
; load, not the program's: it is not instrumented.
; RUN: %opt -passes=hrace -S %s | FileCheck %s --check-prefixes=CHECK,INSTR
; RUN: %opt -passes=hrace-wait-loops,hrace -S %s | FileCheck %s --check-prefixes=CHECK,INSTR
; RUN: %opt -passes=hrace-wait-loops,hrace-wait-loops -S %s | FileCheck %s

%"class.std::condition_variable" = type { [48 x i8] }
%"class.std::unique_lock" = type { i8*, i8 }

@cv = global %"class.std::condition_variable" zeroinitializer
@mu = global [40 x i8] zeroinitializer
@ready = global i32 0

declare void @_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE(%"class.std::condition_variable"*, %"class.std::unique_lock"*)

; CHECK-LABEL: define void @wait_ready(
; CHECK:         %lock = alloca
; INSTR:         call void @__hrace_write8(
; CHECK:         store {{.*}}@mu{{.*}}, {{.*}} %device
; CHECK-NOT:     call void @__hrace_read
; CHECK:         %hrace.wait_mutex = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %{{.*}}
; CHECK-NEXT:    call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{i8\*|ptr}} %hrace.wait_mutex)
; CHECK-NOT:     @__hrace_wait_loop_enter
; CHECK:         {{call|invoke}} void @_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE(
; CHECK-NOT:     @__hrace_wait_loop_enter
; CHECK-NOT:     call void @__hrace_read8
; CHECK:         %hrace.wait_mutex1 = load {{i8\*|ptr}}, {{i8\*\*|ptr}} %{{.*}}
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{i8\*|ptr}} %hrace.wait_mutex1)
; CHECK-NOT:     @__hrace_wait_loop_
; CHECK:         ret void
define void @wait_ready() {
entry:
  %lock = alloca %"class.std::unique_lock"
  %device = getelementptr %"class.std::unique_lock", %"class.std::unique_lock"* %lock, i32 0, i32 0
  store i8* getelementptr ([40 x i8], [40 x i8]* @mu, i32 0, i32 0), i8** %device
  br label %header
header:
  %v = load i32, i32* @ready
  %r = icmp ne i32 %v, 0
  br i1 %r, label %exit, label %body
body:
  call void @_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE(%"class.std::condition_variable"* @cv, %"class.std::unique_lock"* %lock)
  br label %header
exit:
  ret void
}
