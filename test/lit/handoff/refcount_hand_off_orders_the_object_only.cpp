// A reference-counted heap object: Unref changes ref_ under the object's
// mutex and deletes the object, after unlocking, when it drops to 0. Each of
// two threads writes data_[i] without a lock, then drops its reference; T1
// goes first, so T2's Unref deletes, and the destructor reads data_[0],
// written by T1. T2's read of ref_ under mu_ (which T1 changed there) is a
// hand-off whose scope is the heap block holding ref_, the object itself:
// the destructor is silent.
//
// "glob": each thread also writes the global Glob (no lock) before dropping
// its reference. That is the race the hybrid machines exist to find: the
// schedule orders the two writes through the object's mutex, so msm=hb is
// silent; a global is in no hand-off's scope, and the race is reported,
// exactly once, by msm=short and msm=long.
//
// RUN: %hrace_cxx -O0 %s -o %t.O0 && %hrace_cxx -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=msm=long %t.O2 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: not %t.O0 glob 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: not %t.O2 glob 2>&1 | FileCheck %s --check-prefixes=CHECK,SHORT
// RUN: env HRACE_OPTIONS=msm=long not %t.O0 glob 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=long not %t.O2 glob 2>&1 | FileCheck %s --check-prefixes=CHECK,LONG
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 glob 2>&1 | FileCheck %s --check-prefix=HB
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 glob 2>&1 | FileCheck %s --check-prefix=HB
// SILENT-NOT: WARNING: HybridRace
// SILENT:     Glob=0 Sum=30

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
static int T1Done, TouchGlob;

static void *Thread1(void *) {
  Obj->data_[0] = 10;
  if (TouchGlob)
    Glob = 1;
  Obj->Unref();
  invisible_signal(&T1Done);
  return nullptr;
}

static void *Thread2(void *) {
  invisible_wait(&T1Done);
  Obj->data_[1] = 20;
  Obj->Unref(); // The last reference: deletes the object.
  if (TouchGlob)
    Glob = 2;
  return nullptr;
}
// CHECK:      WARNING: HybridRace: data race
// CHECK-NEXT:   Write of size 4 at {{.*}} by thread T2 (locks held: none):
// CHECK-NEXT:     #0 Thread2{{.*}} {{.*}}refcount_hand_off_orders_the_object_only.cpp:72
// CHECK-NEXT:   Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// CHECK-NEXT:     #0 Thread1{{.*}} {{.*}}refcount_hand_off_orders_the_object_only.cpp:61
// SHORT-NEXT:   Detected by msm=short: the previous access does not happen before this one and no lock protects both.
// LONG-NEXT:    Detected by msm=long: the previous access does not happen before this one and no lock protects both.
// CHECK-NEXT:   Location is global 'Glob'
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      Glob=2 Sum=30
// CHECK-NEXT: HybridRace: reported 1 warning

int main(int Argc, char **) {
  TouchGlob = Argc > 1;
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
