// A BlockingCounter: three workers each write their own element of a heap
// array Results (no lock), then DecrementCount (count-- under the mutex, a
// broadcast when it reaches 0); main Waits until the count is 0 and reads
// all three results. Main's wait loop read count, which every worker
// changed by a read-modify-write: the marked loop exit orders main after
// EVERY decrementer, not only the last (Results[0] and Results[1] were
// written by workers that did not bring the count to 0). Results is a
// different heap block from the counter: no hand-off covers it.
// "workers-first": all workers finished before main calls Wait, so
// pthread_cond_wait is never called; "main-first": the workers sleep before
// working, so main blocks in the wait and is woken by the broadcast.
//
// RUN: %hrace_cxx -O0 %s -o %t.O0 && %hrace_cxx -O2 %s -o %t.O2
// RUN: %t.O0 workers-first 2>&1 | FileCheck %s
// RUN: %t.O2 workers-first 2>&1 | FileCheck %s
// RUN: %t.O0 main-first 2>&1 | FileCheck %s
// RUN: %t.O2 main-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O0 workers-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 main-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 workers-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 main-first 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     sum=6

#include "hrace_test_sync.h"
#include <cstdio>
#include <cstring>
#include <ctime>
#include <pthread.h>

class BlockingCounter {
public:
  explicit BlockingCounter(int N) : count_(N) {}
  void DecrementCount() {
    pthread_mutex_lock(&mu_);
    count_--;
    if (count_ == 0)
      pthread_cond_broadcast(&cv_);
    pthread_mutex_unlock(&mu_);
  }
  void Wait() {
    pthread_mutex_lock(&mu_);
    while (count_ != 0)
      pthread_cond_wait(&cv_, &mu_);
    pthread_mutex_unlock(&mu_);
  }

private:
  pthread_mutex_t mu_ = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv_ = PTHREAD_COND_INITIALIZER;
  int count_;
};

static BlockingCounter Counter(3);
static int *Results;
static bool MainFirst;
static int WorkerDone[3];

static void *Worker(void *Arg) {
  long I = reinterpret_cast<long>(Arg);
  if (MainFirst) {
    // Ordering only: let main block in pthread_cond_wait first.
    struct timespec Ts = {0, 200 * 1000 * 1000};
    nanosleep(&Ts, nullptr);
  }
  Results[I] = static_cast<int>(I) + 1;
  Counter.DecrementCount();
  invisible_signal(&WorkerDone[I]);
  return nullptr;
}

int main(int Argc, char **Argv) {
  MainFirst = Argc > 1 && !std::strcmp(Argv[1], "main-first");
  Results = new int[3]();
  pthread_t T[3];
  for (long I = 0; I < 3; I++)
    pthread_create(&T[I], nullptr, Worker, reinterpret_cast<void *>(I));
  // Ordering only: in "workers-first" the count is already 0 when main
  // calls Wait; the marked wait loop then orders main after the workers.
  if (!MainFirst)
    for (int &Done : WorkerDone)
      invisible_wait(&Done);
  Counter.Wait();
  std::printf("sum=%d\n", Results[0] + Results[1] + Results[2]);
  for (pthread_t &Th : T)
    pthread_join(Th, nullptr);
  delete[] Results;
  return 0;
}
