// C++: std::condition_variable::wait with a predicate, whose loop lives in
// the library template instantiated here, and a notify that comes before
// the waiter arrives. The marked loop inside the instantiation orders the
// waiter after the notifier (write/read relation on Ready).
//
// RUN: %hrace_cxx -O0 %s -o %t.O0 && %hrace_cxx -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s
// RUN: %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=precise=0 not %t.O2 2>&1 | FileCheck %s --check-prefix=IMPRECISE
// CHECK-NOT: WARNING: HybridRace
// CHECK: Payload=42
// IMPRECISE: WARNING: HybridRace: data race

#include "hrace_test_sync.h"
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

static std::mutex M;
static std::condition_variable CV;
static bool Ready;
static int Payload;
static int Notified;

int main() {
  std::thread Waiter([] {
    invisible_wait(&Notified);
    std::unique_lock<std::mutex> Lock(M);
    CV.wait(Lock, [] { return Ready; });
    Lock.unlock();
    std::printf("Payload=%d\n", Payload);
  });
  Payload = 42;
  {
    std::lock_guard<std::mutex> Guard(M);
    Ready = true;
  }
  CV.notify_one();
  invisible_signal(&Notified);
  Waiter.join();
  return 0;
}
