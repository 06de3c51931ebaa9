// Atomic operations of 1, 2, 4 and 8 bytes are replaced with calls to the
// runtime, which performs them: values travel zero-extended in an i64, the
// order is the C11 numbering (0 relaxed, 2 acquire, 3 release, 4 acq_rel,
// 5 seq_cst), and no atomic instruction is left. They are never also
// reported as plain reads or writes.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s "--implicit-check-not=call void @__hrace_read" "--implicit-check-not=call void @__hrace_write" "--implicit-check-not=load atomic" "--implicit-check-not=store atomic"

int counter;

// CHECK-LABEL: define {{.*}}@load_orders(
// CHECK:      [[V0:%[0-9a-z.]+]] = {{.*}}call i64 @__hrace_atomic_load4({{.*}}@counter{{.*}}, i32 0)
// CHECK-NEXT: trunc i64 [[V0]] to i32
// CHECK:      call i64 @__hrace_atomic_load4({{.*}}@counter{{.*}}, i32 2)
// CHECK:      call i64 @__hrace_atomic_load4({{.*}}@counter{{.*}}, i32 5)
int load_orders(void) {
  return __atomic_load_n(&counter, __ATOMIC_RELAXED) +
         __atomic_load_n(&counter, __ATOMIC_ACQUIRE) +
         __atomic_load_n(&counter, __ATOMIC_SEQ_CST);
}

// CHECK-LABEL: define {{.*}}@store_orders(
// CHECK:      call void @__hrace_atomic_store8({{.*}}, i64 1, i32 0)
// CHECK:      call void @__hrace_atomic_store8({{.*}}, i64 2, i32 3)
// CHECK:      call void @__hrace_atomic_store8({{.*}}, i64 3, i32 5)
void store_orders(long *p) {
  __atomic_store_n(p, 1, __ATOMIC_RELAXED);
  __atomic_store_n(p, 2, __ATOMIC_RELEASE);
  __atomic_store_n(p, 3, __ATOMIC_SEQ_CST);
}

// A read-modify-write names its operation (1 add; 0 exchange) and order.
// CHECK-LABEL: define {{.*}}@fetch_add(
// CHECK:      call i64 @__hrace_atomic_rmw8({{.*}}, i64 1, i32 1, i32 4)
// CHECK-NOT:  atomicrmw
long fetch_add(long *p) { return __atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL); }

// CHECK-LABEL: define {{.*}}@exchange_byte(
// CHECK:      [[OLD:%[0-9a-z.]+]] = {{.*}}call i64 @__hrace_atomic_rmw1({{.*}}, i64 5, i32 0, i32 0)
// CHECK-NEXT: trunc i64 [[OLD]] to i8
char exchange_byte(char *p) { return __atomic_exchange_n(p, 5, __ATOMIC_RELAXED); }

// Signed and unsigned maximum and minimum are distinct operations (7 max,
// 8 min, 9 umax, 10 umin); a short's value is zero-extended.
// CHECK-LABEL: define {{.*}}@min_max(
// CHECK:      call i64 @__hrace_atomic_rmw2({{.*}}, i32 7, i32 0)
// CHECK:      call i64 @__hrace_atomic_rmw2({{.*}}, i32 10, i32 0)
int min_max(short *p, unsigned short *q, short v) {
  return __atomic_fetch_max(p, v, __ATOMIC_RELAXED) +
         __atomic_fetch_min(q, 3, __ATOMIC_RELAXED);
}

// Floating-point additions travel as the value's bits (11 fadd).
// CHECK-LABEL: define {{.*}}@float_add(
// CHECK:      [[BITS:%[0-9a-z.]+]] = bitcast float %{{.*}} to i32
// CHECK-NEXT: [[WIDE:%[0-9a-z.]+]] = zext i32 [[BITS]] to i64
// CHECK-NEXT: [[OLD:%[0-9a-z.]+]] = {{.*}}call i64 @__hrace_atomic_rmw4({{.*}}, i64 [[WIDE]], i32 11, i32 5)
// CHECK-NEXT: [[NARROW:%[0-9a-z.]+]] = trunc i64 [[OLD]] to i32
// CHECK-NEXT: bitcast i32 [[NARROW]] to float
float float_add(float *p, float v) {
  return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}

// Pointers travel as integers.
// CHECK-LABEL: define {{.*}}@pointer_exchange(
// CHECK:      ptrtoint
// CHECK:      [[OLD:%[0-9a-z.]+]] = {{.*}}call i64 @__hrace_atomic_rmw8({{.*}}, i32 0, i32 2)
// CHECK-NEXT: inttoptr i64 [[OLD]]
void *pointer_exchange(void **p, void *v) {
  return __atomic_exchange_n(p, v, __ATOMIC_ACQUIRE);
}

// A compare-exchange passes both orders and exchanged if and only if the old
// value equals the expected one (the runtime's exchange is strong, which a
// weak one may always be).
// CHECK-LABEL: define {{.*}}@compare_exchange(
// CHECK:      [[OLD:%[0-9a-z.]+]] = {{.*}}call i64 @__hrace_atomic_cas4({{.*}}, i64 [[CMP:%[0-9a-z.]+]], i64 1, i32 4, i32 2)
// CHECK-NEXT: icmp eq i64 [[OLD]], [[CMP]]
// CHECK-NOT:  cmpxchg
int compare_exchange(int *p, int expected) {
  return __atomic_compare_exchange_n(p, &expected, 1, /*weak=*/0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

// CHECK-LABEL: define {{.*}}@compare_exchange_weak(
// CHECK:      call i64 @__hrace_atomic_cas8({{.*}}, i64 1, i32 5, i32 0)
int compare_exchange_weak(long *p, long expected) {
  return __atomic_compare_exchange_n(p, &expected, 1, /*weak=*/1,
                                     __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

// A thread fence is reported right before it. A signal fence only orders
// against this thread's signal handlers and is left alone.
// CHECK-LABEL: define {{.*}}@fence_acquire(
// CHECK:      call void @__hrace_atomic_fence(i32 2)
// CHECK-NEXT: fence acquire
void fence_acquire(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }

// CHECK-LABEL: define {{.*}}@fence_release(
// CHECK:      call void @__hrace_atomic_fence(i32 3)
// CHECK-NEXT: fence release
void fence_release(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }

// CHECK-LABEL: define {{.*}}@fence_acq_rel(
// CHECK:      call void @__hrace_atomic_fence(i32 4)
// CHECK-NEXT: fence acq_rel
void fence_acq_rel(void) { __atomic_thread_fence(__ATOMIC_ACQ_REL); }

// CHECK-LABEL: define {{.*}}@fence_seq_cst(
// CHECK:      call void @__hrace_atomic_fence(i32 5)
// CHECK-NEXT: fence seq_cst
void fence_seq_cst(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// CHECK-LABEL: define {{.*}}@signal_fence(
// CHECK-NOT:  call void @__hrace_atomic_fence
// CHECK:      fence syncscope("singlethread") seq_cst
void signal_fence(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
