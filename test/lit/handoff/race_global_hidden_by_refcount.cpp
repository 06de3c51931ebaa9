// The race the hybrid machines exist to find, next to a hand-off that must
// not hide it: each thread writes the global Glob (no lock) and drops its
// reference to a shared object (ref_ under the object's mutex). T1 goes
// first; T2's Unref is the last and deletes the object, whose destructor
// reads data_[0], written by T1 without a lock. T2's read of ref_ under mu_
// is a hand-off that orders T2 after T1 for the object's heap block only:
// the destructor is silent, Glob (a global) is not covered and its race is
// reported, exactly once. msm=hb orders everything through the mutex and
// stays silent: this schedule hides the race from pure happens-before.
//
// RUN: %hrace_cxx -O0 %s -o %t.O0 && %hrace_cxx -O2 %s -o %t.O2
// RUN: not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=long not %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=long not %t.O2 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 2>&1 | FileCheck %s --check-prefix=HB
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s --check-prefix=HB

#include "hrace_test_sync.h"
#include <cstdio>
#include <pthread.h>

int Glob, Sum;

class RefCounted {
public:
  RefCounted() { pthread_mutex_init(&mu_, nullptr); }
  ~RefCounted() {
    Sum = data_[0] + data_[1] + ref_;
    pthread_mutex_destroy(&mu_);
  }
  void Unref() {
    pthread_mutex_lock(&mu_);
    bool Last = --ref_ == 0;
    pthread_mutex_unlock(&mu_);
    if (Last)
      delete this;
  }
  int data_[2] = {0, 0};

private:
  pthread_mutex_t mu_;
  int ref_ = 2;
};

static RefCounted *Obj;
static int T1Done;

static void *Thread1(void *) {
  Obj->data_[0] = 10;
  Glob = 1;
  Obj->Unref();
  invisible_signal(&T1Done);
  return nullptr;
}

static void *Thread2(void *) {
  invisible_wait(&T1Done);
  Obj->data_[1] = 20;
  Obj->Unref(); // The last reference: deletes the object.
  Glob = 2;
  return nullptr;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Thread2{{.*}} {{.*}}race_global_hidden_by_refcount.cpp:61
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Thread1{{.*}} {{.*}}race_global_hidden_by_refcount.cpp:51
// SHORT-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// LONG-NEXT:    Detected by msm=long: the previous access does not happen before this one and no lock protects both.
// CHECK-NEXT:   Location is global 'Glob'
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      Glob=2 Sum=30
// CHECK-NEXT: HybridRace: reported 1 warning

int main() {
  Obj = new RefCounted;
  pthread_t A, B;
  pthread_create(&A, nullptr, Thread1, nullptr);
  pthread_create(&B, nullptr, Thread2, nullptr);
  pthread_join(A, nullptr);
  pthread_join(B, nullptr);
  std::printf("Glob=%d Sum=%d\n", Glob, Sum);
  return 0;
}
// HB-NOT: WARNING: HybridRace
// HB:     Glob=2 Sum=30
