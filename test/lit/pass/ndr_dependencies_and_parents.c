// -hrace-ndr (the driver's -fsanitize-hybrid-race-ndr): every checked load
// and store also calls the non-deterministic read checker, and a store
// first names the variables its value (0) or its execution (1) depends on,
// and gives the object a stored field belongs to (the last argument, the
// variable's name, is null without debug info:
// ndr_names_variables_from_debug_info.c). Without the option none of these
// calls is made.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -Xclang -load -Xclang %plugin -mllvm -hrace-ndr -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// OFF-NOT: __hrace_ndr

struct Address {
  int Street;
  int No;
} Addr;
int Euro, Yen, Flag, Price;

// CHECK-LABEL: define {{.*}}void @convert(
// CHECK:       call void @__hrace_ndr_read({{.*}}@Euro{{.*}}, i64 4)
// CHECK:       call void @__hrace_ndr_dep({{.*}}@Euro{{.*}}, i32 0, {{.*}}null)
// CHECK-NEXT:  call void @__hrace_ndr_write({{.*}}@Yen{{.*}}, i64 4, {{.*}}null)
void convert(void) { Yen = Euro * 107; }

// CHECK-LABEL: define {{.*}}void @guard(
// CHECK:       call void @__hrace_ndr_dep({{.*}}@Flag{{.*}}, i32 1, {{.*}}null)
// CHECK-NEXT:  call void @__hrace_ndr_write({{.*}}@Price{{.*}}, i64 4, {{.*}}null)
void guard(void) {
  if (Flag > 0)
    Price = 1;
}

// A variable that two conditions of a store read is named once: a loop's
// body runs on the test before the loop and on the one at its end, both of
// the bound loaded once.
// CHECK-LABEL: define {{.*}}void @fill(
// CHECK:       call void @__hrace_ndr_dep({{.*}}@Count{{.*}}, i32 1, {{.*}}null)
// CHECK-NEXT:  call void @__hrace_ndr_write({{.*}}%{{.*}}, i64 4, {{.*}}null)
int Count, Items[64];
void fill(void) {
  for (int I = 0; I < Count; ++I)
    Items[I] = I;
}

// A value stored and then used again counts as read from where it was
// stored: the optimiser forwards it instead of loading Euro.
// CHECK-LABEL: define {{.*}}void @forwarded(
// CHECK:       call void @__hrace_ndr_write({{.*}}@Euro{{.*}}, i64 4, {{.*}}null)
// CHECK:       call void @__hrace_ndr_dep({{.*}}@Euro{{.*}}, i32 0, {{.*}}null)
// CHECK-NEXT:  call void @__hrace_ndr_write({{.*}}@Yen{{.*}}, i64 4, {{.*}}null)
void forwarded(int Amount) {
  Euro = Amount;
  Yen = Euro * 107;
}

// CHECK-LABEL: define {{.*}}void @fields(
// CHECK:       call void @__hrace_ndr_write({{.*}}@Addr{{.*}}, i64 4, {{.*}}@Addr
// CHECK:       call void @__hrace_ndr_write({{.*}}@Addr{{.*}}, i64 4, {{.*}}@Addr
void fields(int S, int N) {
  Addr.Street = S;
  Addr.No = N;
}

// A field through a pointer: its object is the address less the field's
// offset (from the store's type-based alias tag, which newer LLVMs need:
// they write the field's address as a byte offset).
// CHECK-LABEL: define {{.*}}void @heap_fields(
// CHECK:       call void @__hrace_ndr_write({{.*}} [[STREET:%[0-9a-z.]+]], i64 4, {{.*}} [[STREET]], {{.*}}null)
// CHECK:       [[OBJECT:%[0-9a-z.]+]] = getelementptr i8, {{.*}}, i64 -4
// CHECK-NEXT:  call void @__hrace_ndr_write({{.*}}, i64 4, {{.*}} [[OBJECT]], {{.*}}null)
void heap_fields(struct Address *P, int S, int N) {
  P->Street = S;
  P->No = N;
}

// The module's constructor says the module was built for the checker.
// CHECK-LABEL: define internal void @hrace.module_ctor()
// CHECK:       call void @__hrace_init()
// CHECK-NEXT:  call void @__hrace_ndr_module_init()
