// A C++ work queue: std::thread workers, a std::deque guarded by std::mutex
// (std::lock_guard / std::unique_lock) and a std::condition_variable with a
// predicate wait. The library types go through the intercepted pthread
// functions, and the queue's heap nodes are handed over under the lock.
// Silent.
//
// RUN: %hrace_cxx %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb %t 2>&1 | FileCheck %s
// CHECK-NOT: HybridRace
// CHECK:     consumed 100 items, sum 4950
// CHECK-NOT: HybridRace

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

namespace {
std::mutex Lock;
std::condition_variable NotEmpty;
std::deque<int> Queue;
bool Closed;
} // namespace

static void Consume(long *Sum, int *Count) {
  for (;;) {
    std::unique_lock<std::mutex> Guard(Lock);
    NotEmpty.wait(Guard, [] { return !Queue.empty() || Closed; });
    if (Queue.empty())
      return;
    int Item = Queue.front();
    Queue.pop_front();
    Guard.unlock();
    *Sum += Item;
    ++*Count;
  }
}

int main() {
  long Sums[2] = {0, 0};
  int Counts[2] = {0, 0};
  std::thread A(Consume, &Sums[0], &Counts[0]);
  std::thread B(Consume, &Sums[1], &Counts[1]);
  for (int I = 0; I < 100; ++I) {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Queue.push_back(I);
    }
    NotEmpty.notify_one();
  }
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Closed = true;
  }
  NotEmpty.notify_all();
  A.join();
  B.join();
  std::printf("consumed %d items, sum %ld\n", Counts[0] + Counts[1],
              Sums[0] + Sums[1]);
  return 0;
}
