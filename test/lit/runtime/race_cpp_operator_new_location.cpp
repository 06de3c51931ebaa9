// Objects from operator new and new[] are heap blocks too: a race on a
// member of a new'd object, or on an element of a new[] array, is located
// by the block's size and the offset of the racy bytes in it.
//
// RUN: %hrace_cxx %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not %t 2>&1 | FileCheck %s

#include "hrace_test_sync.h"
#include <thread>

namespace {
struct Account {
  long Id;
  int Balance; // offset 8
  int Flags;
}; // 16 bytes

Account *Acct;
int *Array;
int ThreadWrote;
} // namespace

int main() {
  Acct = new Account();
  Array = new int[10];
  std::thread T([] {
    Acct->Balance = 5;
    Array[7] = 1;
    invisible_signal(&ThreadWrote);
  });
  invisible_wait(&ThreadWrote);
  int Sum = Acct->Balance;
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Read of size 4 at {{.*}} by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_cpp_operator_new_location.cpp:[[@LINE-3]]
  // CHECK:        Location is heap block of size 16 at 0x{{[0-9a-f]+}}, offset 8
  Sum += Array[7];
  // CHECK:      WARNING: HybridRace: data race
  // CHECK-NEXT:   Read of size 4 at {{.*}} by thread T0 (locks held: none):
  // CHECK-NEXT:     #0 main {{.*}}race_cpp_operator_new_location.cpp:[[@LINE-3]]
  // CHECK:        Location is heap block of size 40 at 0x{{[0-9a-f]+}}, offset 28
  // CHECK:      HybridRace: reported 2 warnings
  T.join();
  delete[] Array;
  delete Acct;
  return Sum == 6 ? 0 : 1;
}
