; Vector accesses with no fixed-size entry point report their whole store
; size through the range calls: odd vectors, scalable vectors (whose size is
; computed from vscale at run time) and masked loads and stores (as if every
; lane were accessed, since the mask is only known at run time).
; RUN: %opt -passes=hrace -S %s | FileCheck %s

define void @odd_vector(<3 x i32>* %dst, <3 x i32>* %src) {
; CHECK-LABEL: define void @odd_vector(
; CHECK:      call void @__hrace_read_range({{.*}}, i64 12)
; CHECK-NEXT: load <3 x i32>,
; CHECK:      call void @__hrace_write_range({{.*}}, i64 12)
; CHECK-NEXT: store <3 x i32>
  %v = load <3 x i32>, <3 x i32>* %src, align 16
  store <3 x i32> %v, <3 x i32>* %dst, align 16
  ret void
}

define void @scalable_vector(<vscale x 4 x i32>* %p) {
; CHECK-LABEL: define void @scalable_vector(
; CHECK:      [[VSCALE:%[0-9]+]] = call i64 @llvm.vscale.i64()
; CHECK-NEXT: [[BYTES:%[0-9]+]] = mul {{.*}}i64 [[VSCALE]], 16
; CHECK-NEXT: call void @__hrace_read_range({{.*}}, i64 [[BYTES]])
; CHECK-NEXT: load <vscale x 4 x i32>,
; CHECK:      [[VSCALE:%[0-9]+]] = call i64 @llvm.vscale.i64()
; CHECK-NEXT: [[BYTES:%[0-9]+]] = mul {{.*}}i64 [[VSCALE]], 16
; CHECK-NEXT: call void @__hrace_write_range({{.*}}, i64 [[BYTES]])
; CHECK-NEXT: store <vscale x 4 x i32>
  %v = load <vscale x 4 x i32>, <vscale x 4 x i32>* %p, align 16
  %doubled = add <vscale x 4 x i32> %v, %v
  store <vscale x 4 x i32> %doubled, <vscale x 4 x i32>* %p, align 16
  ret void
}

define void @masked(<4 x i32>* %dst, <4 x i32>* %src, <4 x i1> %mask) {
; CHECK-LABEL: define void @masked(
; CHECK:      call void @__hrace_read_range({{.*}}, i64 16)
; CHECK-NEXT: call <4 x i32> @llvm.masked.load
; CHECK:      call void @__hrace_write_range({{.*}}, i64 16)
; CHECK-NEXT: call void @llvm.masked.store
  %v = call <4 x i32> @llvm.masked.load.v4i32.p0v4i32(<4 x i32>* %src, i32 4, <4 x i1> %mask, <4 x i32> zeroinitializer)
  call void @llvm.masked.store.v4i32.p0v4i32(<4 x i32> %v, <4 x i32>* %dst, i32 4, <4 x i1> %mask)
  ret void
}

declare <4 x i32> @llvm.masked.load.v4i32.p0v4i32(<4 x i32>*, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0v4i32(<4 x i32>, <4 x i32>*, i32, <4 x i1>)
