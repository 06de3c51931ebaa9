; Where the marks go in the shapes of control flow clang does not produce at
; -O0: a header entered from two places gets a preheader for the entry mark;
; a critical exit edge is split; an exit block reached only from the loop
; takes the mark itself, after its phis (returning from inside the loop is
; such an edge: the block that returns is outside the loop); the unwind edge of an invoke is not (the wait did not complete); an edge
; that leaves two marked loops carries both marks, the inner loop's first; a
; switch that leaves the loop through several cases shares one mark.
; RUN: %opt -passes=hrace-wait-loops,verify -S %s | FileCheck %s

%cond = type { [48 x i8] }
%mutex = type { [40 x i8] }

@cv = global %cond zeroinitializer
@mu = global %mutex zeroinitializer
@ready = global i32 0
@stop = global i32 0

declare i32 @pthread_cond_wait(%cond*, %mutex*)
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define void @two_entries(
; CHECK:       entry:
; CHECK-NEXT:    br i1 %c, label %[[PRE:.*]], label %other
; CHECK:       other:
; CHECK-NEXT:    br label %[[PRE]]
; CHECK:       [[PRE]]:
; CHECK-NEXT:    call void @__hrace_wait_loop_enter({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
; CHECK-NEXT:    br label %header
; CHECK:       header:
; CHECK-NOT:     @__hrace_wait_loop_
; CHECK:         br i1 %r, label %exit, label %body
; CHECK:       exit:
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
; CHECK-NEXT:    ret void
define void @two_entries(i1 %c) {
entry:
  br i1 %c, label %header, label %other
other:
  br label %header
header:
  %v = load i32, i32* @ready
  %r = icmp ne i32 %v, 0
  br i1 %r, label %exit, label %body
body:
  call i32 @pthread_cond_wait(%cond* @cv, %mutex* @mu)
  br label %header
exit:
  ret void
}

; CHECK-LABEL: define i32 @critical_and_phi(
; CHECK:       header:
; CHECK:         br i1 %r, label %[[SPLIT:hrace.wait_loop_exit]], label %body
; CHECK:       [[SPLIT]]:
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
; CHECK-NEXT:    br label %done
; CHECK:       done:
; CHECK-NEXT:    %result = phi i32 [ 1, %[[SPLIT]] ], [ 0, %entry ]
; CHECK-NOT:     @__hrace_wait_loop_
; CHECK:         ret i32 %result
define i32 @critical_and_phi(i1 %skip) {
entry:
  br i1 %skip, label %done, label %header
header:
  %v = load i32, i32* @ready
  %r = icmp ne i32 %v, 0
  br i1 %r, label %done, label %body
body:
  call i32 @pthread_cond_wait(%cond* @cv, %mutex* @mu)
  br label %header
done:
  %result = phi i32 [ 1, %header ], [ 0, %entry ]
  ret i32 %result
}

; CHECK-LABEL: define i32 @returns(
; CHECK:       header:
; CHECK:         br i1 %r, label %out, label %body
; CHECK:       out:
; CHECK-NEXT:    %seen = phi i32 [ %v, %header ]
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
; CHECK-NEXT:    ret i32 %seen
; CHECK:       body:
; CHECK-NEXT:    call i32 @pthread_cond_wait(
; CHECK:         br i1 %stopping, label %gone, label %header
; CHECK:       gone:
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv{{.*}}, {{.*}}@mu{{.*}})
; CHECK-NEXT:    ret i32 -1
define i32 @returns() {
entry:
  br label %header
header:
  %v = load i32, i32* @ready
  %r = icmp ne i32 %v, 0
  br i1 %r, label %out, label %body
out:
  %seen = phi i32 [ %v, %header ]
  ret i32 %seen
body:
  call i32 @pthread_cond_wait(%cond* @cv, %mutex* @mu)
  %s = load i32, i32* @stop
  %stopping = icmp ne i32 %s, 0
  br i1 %stopping, label %gone, label %header
gone:
  ret i32 -1
}

; CHECK-LABEL: define void @unwinds(
; CHECK:         invoke i32 @pthread_cond_wait(
; CHECK-NEXT:      to label %header unwind label %lpad
; CHECK:       exit:
; CHECK-NEXT:    call void @__hrace_wait_loop_exit(
; CHECK:       lpad:
; CHECK-NEXT:    landingpad
; CHECK-NEXT:      cleanup
; CHECK-NOT:     @__hrace_wait_loop_
; CHECK:         resume
define void @unwinds() personality i32 (...)* @__gxx_personality_v0 {
entry:
  br label %header
header:
  %v = load i32, i32* @ready
  %r = icmp ne i32 %v, 0
  br i1 %r, label %exit, label %body
body:
  invoke i32 @pthread_cond_wait(%cond* @cv, %mutex* @mu)
    to label %header unwind label %lpad
exit:
  ret void
lpad:
  %lp = landingpad { i8*, i32 } cleanup
  resume { i8*, i32 } %lp
}

; The inner loop waits on @cv, the outer one on @cv2 (its own wait); the
; break out of both leaves both.
@cv2 = global %cond zeroinitializer

; CHECK-LABEL: define void @leaves_two_loops(
; CHECK:         call void @__hrace_wait_loop_enter({{.*}}@cv2{{.*}}, {{.*}}@mu{{.*}})
; CHECK-NEXT:    br label %outer
; CHECK:         call void @__hrace_wait_loop_enter({{.*}}@cv,{{.*}}@mu{{.*}})
; CHECK-NEXT:    br label %inner
; CHECK:       inner:
; CHECK:         br i1 %s, label %[[BOTH:hrace.wait_loop_exit[0-9]*]], label %inner.body
; CHECK:       [[BOTH]]:
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv,{{.*}}@mu{{.*}})
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv2{{.*}}, {{.*}}@mu{{.*}})
; CHECK-NEXT:    br label %done
; CHECK:       outer.latch:
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv,{{.*}}@mu{{.*}})
; CHECK-NEXT:    br i1 %s, label %[[OUTER:hrace.wait_loop_exit[0-9]*]], label %outer
; CHECK:       [[OUTER]]:
; CHECK-NEXT:    call void @__hrace_wait_loop_exit({{.*}}@cv2{{.*}}, {{.*}}@mu{{.*}})
; CHECK-NEXT:    br label %done
define void @leaves_two_loops() {
entry:
  br label %outer
outer:
  call i32 @pthread_cond_wait(%cond* @cv2, %mutex* @mu)
  br label %inner.pre
inner.pre:
  br label %inner
inner:
  %v = load i32, i32* @stop
  %s = icmp ne i32 %v, 0
  br i1 %s, label %done, label %inner.body
inner.body:
  %w = load i32, i32* @ready
  %r = icmp ne i32 %w, 0
  br i1 %r, label %outer.latch, label %inner.wait
inner.wait:
  call i32 @pthread_cond_wait(%cond* @cv, %mutex* @mu)
  br label %inner
outer.latch:
  br i1 %s, label %done, label %outer
done:
  ret void
}

; CHECK-LABEL: define void @switch_exits(
; CHECK:         switch i32 %v, label %body [
; CHECK-NEXT:      i32 1, label %[[OUT:hrace.wait_loop_exit[0-9]*]]
; CHECK-NEXT:      i32 2, label %[[OUT]]
; CHECK-NEXT:    ]
; CHECK:       [[OUT]]:
; CHECK-NEXT:    call void @__hrace_wait_loop_exit(
; CHECK-NEXT:    br label %exit
; CHECK-NOT:     @__hrace_wait_loop_exit
; CHECK:         ret void
define void @switch_exits(i1 %c) {
entry:
  br i1 %c, label %exit, label %header
header:
  %v = load i32, i32* @ready
  switch i32 %v, label %body [ i32 1, label %exit
                               i32 2, label %exit ]
body:
  call i32 @pthread_cond_wait(%cond* @cv, %mutex* @mu)
  br label %header
exit:
  ret void
}
