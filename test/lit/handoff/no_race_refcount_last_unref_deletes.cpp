// A reference-counted heap object: Ref/Unref change ref_ under the object's
// mutex, and the Unref that drops it to 0 deletes the object after
// unlocking. Two threads hold a reference each; thread i writes data_[i]
// without a lock and then drops its reference. T2's Unref is the last: the
// destructor, run by T2, reads data_[0] written by T1. T2 read ref_ under
// mu_ after T1 changed it there: a hand-off whose scope is the heap block
// holding ref_, the object itself, so the destructor's reads and the delete
// are ordered after T1's write. Nothing else is (see
// race_global_hidden_by_refcount.cpp).
//
// RUN: %hrace_cxx -O0 %s -o %t.O0 && %hrace_cxx -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s
// RUN: %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O0 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     Sum=30

#include "hrace_test_sync.h"
#include <cstdio>
#include <pthread.h>

int Sum;

class RefCounted {
public:
  RefCounted() { pthread_mutex_init(&mu_, nullptr); }
  ~RefCounted() {
    Sum = data_[0] + data_[1] + ref_;
    pthread_mutex_destroy(&mu_);
  }
  void Ref() {
    pthread_mutex_lock(&mu_);
    ref_++;
    pthread_mutex_unlock(&mu_);
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
  int ref_ = 1;
};

static RefCounted *Obj;
static int T1Done;

static void *Thread1(void *) {
  Obj->data_[0] = 10;
  Obj->Unref();
  invisible_signal(&T1Done);
  return nullptr;
}

static void *Thread2(void *) {
  // Ordering only: T1 has dropped its reference, so this Unref deletes;
  // the reference count (and its hand-off) then orders T2 after T1.
  invisible_wait(&T1Done);
  Obj->data_[1] = 20;
  Obj->Unref();
  return nullptr;
}

int main() {
  Obj = new RefCounted;
  Obj->Ref(); // One reference for each thread.
  pthread_t A, B;
  pthread_create(&A, nullptr, Thread1, nullptr);
  pthread_create(&B, nullptr, Thread2, nullptr);
  pthread_join(A, nullptr);
  pthread_join(B, nullptr);
  std::printf("Sum=%d\n", Sum);
  return 0;
}
