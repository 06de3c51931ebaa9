// A stack object whose address never leaves its function cannot race and is
// not instrumented. Once the address of any part of it escapes (to another
// thread, or stored in a global), every access to it is, through any field.
// -O0 keeps every local in memory.
// RUN: %clang --target=x86_64-linux-gnu -O0 -fpass-plugin=%plugin %calls_only -S -emit-llvm %s -o - | FileCheck %s

typedef unsigned long pthread_t;
int pthread_create(pthread_t *thread, const void *attr,
                   void *(*start)(void *), void *arg);
void *worker(void *arg);

struct Pair {
  int a;
  int b;
};

// CHECK-LABEL: define {{.*}}@private_local(
// CHECK-NOT:  call {{.*}}@__hrace_
// CHECK:      ret i32
int private_local(int x) {
  int y = x * 2;
  struct Pair pair = {x, y};
  return pair.a + pair.b;
}

// The thread is given &s.b only, yet s.a is reachable from it.
// CHECK-LABEL: define {{.*}}@field_shared_with_thread(
// CHECK:      call {{.*}}@pthread_create(
// CHECK:      getelementptr inbounds {{.*}}%struct.Pair, {{.*}}, i32 0, i32 0
// CHECK:      call void @__hrace_write4(
// CHECK-NEXT: store i32 1,
// CHECK:      call void @__hrace_read4(
// CHECK-NEXT: load i32,
// CHECK:      call void @__hrace_read4(
// CHECK-NEXT: load i32,
int field_shared_with_thread(void) {
  struct Pair s;
  pthread_t thread;
  pthread_create(&thread, 0, worker, &s.b);
  s.a = 1;
  return s.a + s.b;
}

int *published;

// CHECK-LABEL: define {{.*}}@published_local(
// CHECK:      store {{.*}}@published
// CHECK:      call void @__hrace_write4(
// CHECK-NEXT: store i32 2,
int published_local(void) {
  int x = 0;
  published = &x;
  x = 2;
  return x;
}
