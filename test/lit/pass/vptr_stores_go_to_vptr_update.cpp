// Constructors and destructors store the vtable pointer through
// __hrace_vptr_update(object, new pointer), which decides at run time
// whether the store changes anything; other stores of pointers stay plain
// writes.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

struct Shape {
  virtual ~Shape();
  virtual int sides();
};

void released(Shape *);
Shape::~Shape() { released(this); }
int Shape::sides() { return 0; }

// CHECK-LABEL: define {{.*}}@_ZN5ShapeD2Ev(
// CHECK:       call void @__hrace_vptr_update(
// CHECK-NEXT:  store {{.*}}@_ZTV5Shape

void *Slot;
// CHECK-LABEL: define {{.*}}@_Z9store_ptrPv(
// CHECK-NOT:   __hrace_vptr_update
// CHECK:       call void @__hrace_write8(
void store_ptr(void *P) { Slot = P; }
