// Atomic operations stay in the program and the runtime is told around them,
// with the access size and the C11 memory order (0 relaxed, 2 acquire,
// 3 release, 4 acq_rel, 5 seq_cst). They are never also reported as plain
// reads or writes.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s "--implicit-check-not=call void @__hrace_read" "--implicit-check-not=call void @__hrace_write"

int counter;

// An atomic load is reported right after it has read its value.
// CHECK-LABEL: define {{.*}}@load_orders(
// CHECK:      load atomic i32, {{.*}}@counter monotonic
// CHECK-NEXT: call void @__hrace_atomic_load({{.*}}@counter{{.*}}, i64 4, i32 0)
// CHECK:      load atomic i32, {{.*}}@counter acquire
// CHECK-NEXT: call void @__hrace_atomic_load({{.*}}@counter{{.*}}, i64 4, i32 2)
// CHECK:      load atomic i32, {{.*}}@counter seq_cst
// CHECK-NEXT: call void @__hrace_atomic_load({{.*}}@counter{{.*}}, i64 4, i32 5)
int load_orders(void) {
  return __atomic_load_n(&counter, __ATOMIC_RELAXED) +
         __atomic_load_n(&counter, __ATOMIC_ACQUIRE) +
         __atomic_load_n(&counter, __ATOMIC_SEQ_CST);
}

// An atomic store is reported right before it publishes its value.
// CHECK-LABEL: define {{.*}}@store_orders(
// CHECK:      call void @__hrace_atomic_store({{.*}}, i64 8, i32 0)
// CHECK-NEXT: store atomic i64 1, {{.*}} monotonic
// CHECK:      call void @__hrace_atomic_store({{.*}}, i64 8, i32 3)
// CHECK-NEXT: store atomic i64 2, {{.*}} release
// CHECK:      call void @__hrace_atomic_store({{.*}}, i64 8, i32 5)
// CHECK-NEXT: store atomic i64 3, {{.*}} seq_cst
void store_orders(long *p) {
  __atomic_store_n(p, 1, __ATOMIC_RELAXED);
  __atomic_store_n(p, 2, __ATOMIC_RELEASE);
  __atomic_store_n(p, 3, __ATOMIC_SEQ_CST);
}

// A read-modify-write is bracketed by begin and end calls with its order.
// CHECK-LABEL: define {{.*}}@fetch_add(
// CHECK:      call void @__hrace_atomic_rmw_begin({{.*}}, i64 8, i32 4)
// CHECK-NEXT: atomicrmw add {{.*}} acq_rel
// CHECK-NEXT: call void @__hrace_atomic_rmw_end({{.*}}, i64 8, i32 4)
long fetch_add(long *p) { return __atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL); }

// CHECK-LABEL: define {{.*}}@exchange_byte(
// CHECK:      call void @__hrace_atomic_rmw_begin({{.*}}, i64 1, i32 0)
// CHECK-NEXT: atomicrmw xchg {{.*}} monotonic
// CHECK-NEXT: call void @__hrace_atomic_rmw_end({{.*}}, i64 1, i32 0)
char exchange_byte(char *p) { return __atomic_exchange_n(p, 5, __ATOMIC_RELAXED); }

// A compare-exchange begins with its success order and ends with the success
// order if it exchanged, the failure order if it only loaded.
// CHECK-LABEL: define {{.*}}@compare_exchange(
// CHECK:      call void @__hrace_atomic_rmw_begin({{.*}}, i64 4, i32 4)
// CHECK-NEXT: [[PAIR:%[0-9a-z.]+]] = cmpxchg {{.*}} acq_rel acquire
// CHECK-NEXT: [[EXCHANGED:%[0-9a-z.]+]] = extractvalue { i32, i1 } [[PAIR]], 1
// CHECK-NEXT: [[ORDER:%[0-9a-z.]+]] = select i1 [[EXCHANGED]], i32 4, i32 2
// CHECK-NEXT: call void @__hrace_atomic_rmw_end({{.*}}, i64 4, i32 [[ORDER]])
int compare_exchange(int *p, int expected) {
  return __atomic_compare_exchange_n(p, &expected, 1, /*weak=*/0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

// CHECK-LABEL: define {{.*}}@compare_exchange_weak(
// CHECK:      call void @__hrace_atomic_rmw_begin({{.*}}, i64 8, i32 5)
// CHECK-NEXT: [[PAIR:%[0-9a-z.]+]] = cmpxchg weak {{.*}} seq_cst monotonic
// CHECK-NEXT: [[EXCHANGED:%[0-9a-z.]+]] = extractvalue { i64, i1 } [[PAIR]], 1
// CHECK-NEXT: [[ORDER:%[0-9a-z.]+]] = select i1 [[EXCHANGED]], i32 5, i32 0
// CHECK-NEXT: call void @__hrace_atomic_rmw_end({{.*}}, i64 8, i32 [[ORDER]])
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
