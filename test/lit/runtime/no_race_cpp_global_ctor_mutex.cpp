// A C++ global object whose constructor locks a std::mutex and fills its
// state runs before main; the runtime is initialised before constructors,
// so the lock is known from its first use. Threads started by main then
// use the object under the same mutex. Silent.
//
// RUN: %hrace_cxx %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     registry size = 202
// CHECK-NOT: HybridRace

#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace {
class Registry {
public:
  Registry() {
    std::lock_guard<std::mutex> Guard(Lock);
    Names.push_back(1);
    Names.push_back(2);
  }
  void Add(int Name) {
    std::lock_guard<std::mutex> Guard(Lock);
    Names.push_back(Name);
  }
  size_t Size() {
    std::lock_guard<std::mutex> Guard(Lock);
    return Names.size();
  }

private:
  std::mutex Lock;
  std::vector<int> Names;
};

Registry Global;
} // namespace

int main() {
  auto Work = [] {
    for (int I = 0; I < 100; ++I)
      Global.Add(I);
  };
  std::thread A(Work), B(Work);
  A.join();
  B.join();
  std::printf("registry size = %zu\n", Global.Size());
  return 0;
}
