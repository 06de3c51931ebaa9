// std::async(std::launch::async) runs a task on a new thread; future::get()
// returns after the task finished. What the task wrote is ordered before the
// code after get(), and what main wrote before std::async before the task.
// Silent.
//
// RUN: %hrace_cxx %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     result = 42, side = 7
// CHECK-NOT: HybridRace

#include <cstdio>
#include <future>
#include <vector>

namespace {
std::vector<int> Input;
int Side;
} // namespace

int main() {
  Input = {10, 12, 20};
  std::future<int> Result = std::async(std::launch::async, [] {
    Side = 7;
    int Sum = 0;
    for (int V : Input)
      Sum += V;
    return Sum;
  });
  int Value = Result.get();
  std::printf("result = %d, side = %d\n", Value, Side);
  Input.clear();
  return 0;
}
