// A destructor stores the vtable pointer of its own class into the object.
// When that is the pointer the object already has (the most derived class's
// destructor), the store changes nothing and is a read: a virtual call made
// in another thread before the destruction does not race with it, in every
// machine. A base class's destructor does change the pointer, and that
// races with the unordered virtual call ("base").
//
// RUN: %hrace_cxx %s -o %t
// RUN: %t same 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t same 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t same 2>&1 | FileCheck %s
// RUN: not %t base 2>&1 | FileCheck %s --check-prefix=BASE
// RUN: env HRACE_OPTIONS=msm=hb not %t base 2>&1 | FileCheck %s --check-prefix=BASE
// CHECK-NOT:  WARNING: HybridRace
// CHECK:      destroyed
// BASE:       WARNING: HybridRace: data race
// BASE-NEXT:    Write of size 8 at [[VPTR:0x[0-9a-f]+]] by thread T2 (locks held: none):
// BASE-NEXT:      #0 Base::~Base()
// BASE:         Previous read of size 8 at [[VPTR]] by thread T1 (locks held: none):
// BASE-NEXT:      #0 Call

#include "hrace_test_sync.h"
#include <new>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct Base {
  virtual ~Base() { printf("destroyed\n"); }
  virtual int get() { return 1; }
};

struct Derived : Base {
  ~Derived() override { printf("destroying Derived\n"); }
  int get() override { return 2; }
};

// Only the most derived class's vtable pointer is ever stored by "same".
struct Leaf {
  virtual ~Leaf() { printf("destroyed\n"); }
  virtual int get() { return 3; }
};

static Base *AsBase;
static Leaf *AsLeaf;
static int Called;

static void *Call(void *) {
  int V = AsLeaf ? AsLeaf->get() : AsBase->get();
  printf("get %d\n", V);
  invisible_signal(&Called);
  return nullptr;
}

static void *Destroy(void *) {
  invisible_wait(&Called);
  // The destructor alone: freeing the object is a write of its own.
  if (AsLeaf)
    AsLeaf->~Leaf();
  else
    AsBase->~Base();
  return nullptr;
}

alignas(Derived) static char Storage[sizeof(Derived) + sizeof(Leaf)];

int main(int, char **Argv) {
  if (!strcmp(Argv[1], "same"))
    AsLeaf = new (Storage) Leaf();
  else
    AsBase = new (Storage) Derived();
  pthread_t T1, T2;
  pthread_create(&T1, nullptr, Call, nullptr);
  pthread_create(&T2, nullptr, Destroy, nullptr);
  pthread_join(T1, nullptr);
  pthread_join(T2, nullptr);
  return 0;
}
