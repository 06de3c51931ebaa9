// A thread pool of two workers. Main builds heap tasks (inputs set without a
// lock), queues them; a worker takes one (blocking Get: a condition-variable
// loop in a member function), runs it (the task writes its result and a slot
// of a heap array it owns), and queues it on the done queue; main takes the
// four finished tasks, reads the results and deletes the tasks. Every
// hand-over goes through the marked wait loop in Get, whose condition reads
// Count_, a counter both workers change: main is ordered after the worker
// that ran each task, whichever of the two it was. A null task per worker
// shuts the pool down.
//
// RUN: %hrace_cxx -O0 %s -o %t.O0 && %hrace_cxx -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s
// RUN: %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O0 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     results=14 outs=12

#include <cstdio>
#include <pthread.h>

struct Task {
  virtual void Run() = 0;
  virtual ~Task() {}
};

struct SquareTask : Task {
  SquareTask(int In, int Slot) : In(In), Slot(Slot), Out(new int[4]()) {}
  ~SquareTask() override { delete[] Out; }
  void Run() override {
    Result = In * In;
    Out[Slot] = In + Slot;
  }
  int In, Slot, Result = 0;
  int *Out;
};

class Queue {
public:
  void Put(Task *T) {
    pthread_mutex_lock(&Mu_);
    Items_[(Head_ + Count_) % 8] = T;
    Count_++;
    pthread_cond_signal(&Cv_);
    pthread_mutex_unlock(&Mu_);
  }
  Task *Get() {
    pthread_mutex_lock(&Mu_);
    while (Count_ == 0)
      pthread_cond_wait(&Cv_, &Mu_);
    Task *T = Items_[Head_];
    Head_ = (Head_ + 1) % 8;
    Count_--;
    pthread_mutex_unlock(&Mu_);
    return T;
  }

private:
  pthread_mutex_t Mu_ = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t Cv_ = PTHREAD_COND_INITIALIZER;
  Task *Items_[8] = {};
  int Head_ = 0, Count_ = 0;
};

static Queue Work, Done;

static void *Worker(void *) {
  while (Task *T = Work.Get()) {
    T->Run();
    Done.Put(T);
  }
  return nullptr;
}

int main() {
  pthread_t W[2];
  for (pthread_t &T : W)
    pthread_create(&T, nullptr, Worker, nullptr);
  for (int I = 0; I < 4; I++)
    Work.Put(new SquareTask(I, I));
  int Results = 0, Outs = 0;
  for (int I = 0; I < 4; I++) {
    SquareTask *T = static_cast<SquareTask *>(Done.Get());
    Results += T->Result;
    Outs += T->Out[T->Slot];
    delete T;
  }
  for (int I = 0; I < 2; I++)
    Work.Put(nullptr);
  for (pthread_t &T : W)
    pthread_join(T, nullptr);
  std::printf("results=%d outs=%d\n", Results, Outs);
  return 0;
}
