// -hrace-ndr: loads of one basic block at constant distances from one
// another (an unrolled loop's elements too) whose bytes join into one run, on one source line, with no write and no
// call between them, are one call of __hrace_ndr_read for the whole run,
// made before the first of them (the checker of non-deterministic reads
// enters the runtime for each read that brings new bytes: an unrolled loop
// over 32 floats was 32 calls). Loads with a gap between their bytes or
// on other lines are not one run, and a write or a call between loads
// ends every run open. Volatile loads are read one by one. The race
// checker's calls are as without -hrace-ndr.
// (The race checker's pairs are off here: the only byte offsets left in the
// code are the runs'.)
// RUN: %clang --target=x86_64-linux-gnu -O1 -g -Xclang -load -Xclang %plugin -mllvm -hrace-ndr -mllvm -hrace-coalesce-adjacent=0 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

struct Point {
  float X, Y, Z, W;
};

// CHECK-LABEL: define {{.*}}@length2(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 12)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float length2(const struct Point *P) { return P->X * P->X + P->Y * P->Y + P->Z * P->Z; }

// Read from the highest field first: the run starts at the lowest, 8 bytes
// below the first load's address.
// CHECK-LABEL: define {{.*}}@backwards(
// CHECK:       [[START:%[0-9]+]] = getelementptr i8, {{.*}}, i64 -8, !dbg
// CHECK-NEXT:  call void @__hrace_ndr_read({{.*}}[[START]], i64 12)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float backwards(const struct Point *P) { return P->W - P->Z - P->Y; }

// CHECK-LABEL: define {{.*}}@with_a_gap(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float with_a_gap(const struct Point *P) { return P->X + P->Z; }

// CHECK-LABEL: define {{.*}}@on_two_lines(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float on_two_lines(const struct Point *P) {
  float X = P->X;
  return X + P->Y;
}

// A write between the reads of X and Y (through Out, which may be Y): Y may
// be read after it.
// CHECK-LABEL: define {{.*}}@write_between(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK:       call void @__hrace_ndr_write(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float write_between(struct Point *P, float *Out) { float X = P->X; *Out = X; return X + P->Y; }

// A call may end the epoch: the reads on each side of it are apart.
void opaque(void);
// CHECK-LABEL: define {{.*}}@call_between(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK:       call void @opaque(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float call_between(const struct Point *P) { float X = P->X; opaque(); return X + P->Y; }

// CHECK-LABEL: define {{.*}}@volatile_fields(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 4)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float volatile_fields(volatile struct Point *P) { return P->X + P->Y; }

// An unrolled loop over 32 floats: one read of 128 bytes (the runtime
// splits it at its variables' bounds). The elements a loop's iteration
// reads at distances from a varying index are one read too (a loop the
// optimiser unrolls in part).
// CHECK-LABEL: define {{.*}}@sum32(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 128)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float sum32(const float *A) {
  float Sum = 0;
#pragma unroll
  for (int I = 0; I < 32; ++I) Sum += A[I];
  return Sum;
}

// CHECK-LABEL: define {{.*}}@sum_by_four(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 16)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       {{^[}]$}}
float sum_by_four(const float *A, long N) {
  float Sum = 0;
  for (long I = 0; I < N; I += 4) Sum += A[I] + A[I + 1] + A[I + 2] + A[I + 3];
  return Sum;
}

// The run's pointer is the value of an atomic load, which the race
// checker's instrumentation replaces by its call's result: the run is
// counted from the replacement.
struct Point *_Atomic Shared;
// CHECK-LABEL: define {{.*}}@through_an_atomic_pointer(
// CHECK:       call i64 @__hrace_atomic_load8(
// CHECK:       call void @__hrace_ndr_read({{.*}}, i64 8)
// CHECK-NOT:   call void @__hrace_ndr_read(
// CHECK:       ret float
float through_an_atomic_pointer(void) { struct Point *P = Shared; return P->X + P->Y; }
