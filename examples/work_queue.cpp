//===-- work_queue.cpp - Example: std::thread workers and an annotation ---===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// std::thread workers drain a queue under a std::mutex. They also publish the
// last item they took as a progress hint, without a lock: a real race, but a
// harmless one, which ANNOTATE_BENIGN_RACE tells the detector. No report.
//
//===----------------------------------------------------------------------===//

#include <hrace/annotations.h>

#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace {

constexpr int kWorkers = 3;
constexpr int kItems = 1000;

std::mutex QueueLock;
std::vector<int> Queue; // Guarded by QueueLock.
long Sum;               // Guarded by QueueLock.
int ProgressHint;       // Racy on purpose: only ever displayed.

void work() {
  for (;;) {
    int Item;
    {
      std::lock_guard<std::mutex> Guard(QueueLock);
      if (Queue.empty())
        return;
      Item = Queue.back();
      Queue.pop_back();
      Sum += Item;
    }
    ProgressHint = Item;
  }
}

} // namespace

int main() {
  ANNOTATE_BENIGN_RACE(&ProgressHint, "progress hint, read only for display");
  for (int I = 1; I <= kItems; ++I)
    Queue.push_back(I);
  std::vector<std::thread> Workers;
  for (int I = 0; I < kWorkers; ++I)
    Workers.emplace_back(work);
  for (std::thread &W : Workers)
    W.join();
  std::printf("work_queue: sum = %ld\n", Sum);
  return Sum == long(kItems) * (kItems + 1) / 2 ? 0 : 1;
}
