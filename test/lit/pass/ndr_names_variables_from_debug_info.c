// With debug info, -hrace-ndr passes each store's variable, and each
// variable a store depends on, by its source name, for the correlations of
// the checker's reports: a global or local by its name, a field or element
// by its path from one, an object reached through a pointer (a parameter,
// or one loaded from a global) by the pointer. Addresses at no constant
// offset from a named variable pass null (the runtime describes them).
// RUN: %clang --target=x86_64-linux-gnu -g -O1 -fpass-plugin=%plugin -Xclang -load -Xclang %plugin -mllvm -hrace-ndr -S -emit-llvm %s -o - | FileCheck %s

struct Account {
  int Id;
  int Balance[2];
};
struct Bank {
  struct Account Accounts[4];
  struct Account *Best;
};
struct Account Savings;
struct Bank *TheBank;
int Euro, Yen;
void use(struct Account *);

// CHECK-DAG: [[EURO:@hrace.ndr.name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"Euro\00"
// CHECK-DAG: [[YEN:@hrace.ndr.name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"Yen\00"
// CHECK-DAG: [[FIELD:@hrace.ndr.name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"Savings.Balance[1]\00"
// CHECK-DAG: [[ARROW:@hrace.ndr.name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"A->Id\00"
// CHECK-DAG: [[NEXT:@hrace.ndr.name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"A[1].Id\00"
// CHECK-DAG: [[DEREF:@hrace.ndr.name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"*P\00"
// CHECK-DAG: [[LOCAL:@hrace.ndr.name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"Mine.Id\00"
// CHECK-DAG: [[LOADED:@hrace.ndr.name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"TheBank->Accounts[2].Balance[0]\00"

// CHECK-LABEL: define {{.*}}void @convert(
// CHECK:       call void @__hrace_ndr_dep({{.*}}@Euro{{.*}}, i32 0, {{.*}}[[EURO]]
// CHECK-NEXT:  call void @__hrace_ndr_write({{.*}}@Yen{{.*}}, i64 4, {{.*}}null, {{.*}}[[YEN]]
void convert(void) { Yen = Euro * 107; }

// CHECK-LABEL: define {{.*}}void @global_field(
// CHECK:       call void @__hrace_ndr_write({{.*}}, i64 4, {{.*}}, {{.*}}[[FIELD]]
void global_field(int V) { Savings.Balance[1] = V; }

// CHECK-LABEL: define {{.*}}void @through_parameter(
// CHECK:       call void @__hrace_ndr_write({{.*}}, i64 4, {{.*}}, {{.*}}[[ARROW]]
// CHECK:       call void @__hrace_ndr_write({{.*}}, i64 4, {{.*}}, {{.*}}[[NEXT]]
void through_parameter(struct Account *A) {
  A->Id = 1;
  A[1].Id = 2;
}

// CHECK-LABEL: define {{.*}}void @whole_pointee(
// CHECK:       call void @__hrace_ndr_write({{.*}}, i64 4, {{.*}}, {{.*}}[[DEREF]]
void whole_pointee(int *P) { *P = 3; }

// A local whose address escapes stays in memory, named by its declaration.
// CHECK-LABEL: define {{.*}}void @local(
// CHECK:       call void @__hrace_ndr_write({{.*}}, i64 4, {{.*}}, {{.*}}[[LOCAL]]
void local(void) {
  struct Account Mine;
  Mine.Id = 4;
  use(&Mine);
}

// CHECK-LABEL: define {{.*}}void @loaded_pointer(
// CHECK:       call void @__hrace_ndr_write({{.*}}, i64 4, {{.*}}, {{.*}}[[LOADED]]
void loaded_pointer(void) { TheBank->Accounts[2].Balance[0] = 5; }

// An element at a variable index has no name of its own.
// CHECK-LABEL: define {{.*}}void @variable_index(
// CHECK:       call void @__hrace_ndr_write({{.*}}, i64 4, {{.*}}, {{.*}}null)
void variable_index(int I) { Savings.Balance[I] = 6; }
