// std::atomic in C++: a std::atomic<bool> flag published with
// store(release) and polled with load(acquire), and a default (seq_cst)
// std::atomic<int> ticket taken by fetch_add; the last thread to arrive reads
// what the others wrote. Both orderings create happens-before edges. Silent.
//
// RUN: %hrace_cxx %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     payload = hello, parts = 6
// CHECK-NOT: HybridRace

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

namespace {
std::string Payload;
std::atomic<bool> Published{false};
int Parts[3];
std::atomic<int> Arrivals{0};
int Total;
} // namespace

static void Part(int Me) {
  Parts[Me] = Me + 1;
  if (Arrivals.fetch_add(1) == 2)
    Total = Parts[0] + Parts[1] + Parts[2];
}

int main() {
  std::thread Producer([] {
    Payload = "hello";
    Published.store(true, std::memory_order_release);
  });
  while (!Published.load(std::memory_order_acquire))
    std::this_thread::yield();
  std::string Seen = Payload;
  Producer.join();

  std::thread A(Part, 0), B(Part, 1);
  Part(2);
  A.join();
  B.join();
  std::printf("payload = %s, parts = %d\n", Seen.c_str(), Total);
  return 0;
}
