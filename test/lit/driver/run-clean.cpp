// A race-free C++ program, std::thread and std::mutex, built by
// hrace-clang++ into one executable and by the libexec "c++" in two steps:
// it runs clean and exits 0.
//
// RUN: %driver_cxx -fsanitize-hybrid-race -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: sh -c 'PATH=%libexec:$PATH c++ -fsanitize-hybrid-race -O1 -c %s -o %t.o'
// RUN: sh -c 'PATH=%libexec:$PATH c++ -fsanitize-hybrid-race %t.o -o %t.2'
// RUN: %t.2 | FileCheck %s
// CHECK: total = 4000

#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace {
std::mutex Lock;
long Total;
} // namespace

int main() {
  std::vector<std::thread> Threads;
  for (int I = 0; I < 4; ++I)
    Threads.emplace_back([] {
      for (int J = 0; J < 1000; ++J) {
        std::lock_guard<std::mutex> Guard(Lock);
        ++Total;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  std::printf("total = %ld\n", Total);
  return 0;
}
