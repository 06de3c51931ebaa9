// A Mutex class with LockWhen/Await that signals at Unlock only when a
// waiter asked for it. The signaller writes Data without a lock, then sets
// Ready under the mutex; the waiter waits for Ready, then uses Data.
//
// "signaller-first": the waiter arrives after the signaller has finished, so
// signal_at_unlock_ was never set, no signal is sent and pthread_cond_wait
// is never called. Only the marked loop exit in Await (its condition read
// Ready, written by the signaller under the mutex) orders the threads.
// "waiter-first": the waiter blocks in pthread_cond_wait and is woken.
// "virtual": the condition is a virtual Predicate::Eval instead of a function
// pointer. precise=0 has no marked loops: the lost signal is reported there.
//
// RUN: %hrace_cxx -O0 %s -o %t.O0 && %hrace_cxx -O2 %s -o %t.O2
// RUN: %t.O0 signaller-first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 signaller-first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O0 waiter-first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 waiter-first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O0 signaller-first virtual 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 signaller-first virtual 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: %t.O2 waiter-first virtual 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=msm=long %t.O0 signaller-first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=msm=long %t.O2 signaller-first virtual 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=msm=long %t.O2 waiter-first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 signaller-first 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 waiter-first virtual 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: env HRACE_OPTIONS=precise=0 not %t.O2 signaller-first 2>&1 | FileCheck %s --check-prefix=IMPRECISE
// SILENT-NOT: WARNING: HybridRace
// SILENT:     Data=2
// IMPRECISE:  WARNING: HybridRace: data race
// IMPRECISE:    Location is global 'Data'

#include "hrace_test_sync.h"
#include <cstdio>
#include <cstring>
#include <pthread.h>

struct Condition {
  Condition(bool (*Fn)(void *), void *Arg) : Fn(Fn), Arg(Arg) {}
  bool Eval() const { return Fn(Arg); }
  bool (*Fn)(void *);
  void *Arg;
};
struct Predicate { virtual bool Eval() = 0; };

class Mutex {
public:
  void Lock() { pthread_mutex_lock(&mu_); }
  void Unlock() {
    bool Signal = signal_at_unlock_;
    signal_at_unlock_ = false;
    pthread_mutex_unlock(&mu_);
    if (Signal)
      pthread_cond_signal(&cv_);
  }
  void LockWhen(Condition Cond) { Lock(); Await(Cond); }
  void Await(Condition Cond) {
    signal_at_unlock_ = true;
    while (!Cond.Eval())
      pthread_cond_wait(&cv_, &mu_);
  }
  void AwaitPredicate(Predicate &P) {
    signal_at_unlock_ = true;
    while (!P.Eval())
      pthread_cond_wait(&cv_, &mu_);
  }

private:
  pthread_mutex_t mu_ = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv_ = PTHREAD_COND_INITIALIZER;
  bool signal_at_unlock_ = false;
};

int Data, Ready;
static Mutex Mu;
static bool SignallerFirst, Virtual;
static int WaiterStarted, SignallerDone;

static bool IsReady(void *Arg) { return *static_cast<int *>(Arg) != 0; }
struct ReadyPredicate : Predicate {
  bool Eval() override { return Ready != 0; }
};

static void *Signaller(void *) {
  Data = 1;
  Mu.Lock();
  Ready = 1;
  Mu.Unlock();
  invisible_signal(&SignallerDone);
  return nullptr;
}

static void *Waiter(void *) {
  invisible_signal(&WaiterStarted);
  // Ordering only: arrive after the signaller so that no signal is sent.
  if (SignallerFirst)
    invisible_wait(&SignallerDone);
  if (Virtual) {
    ReadyPredicate P;
    Mu.Lock();
    Mu.AwaitPredicate(P);
  } else {
    Mu.LockWhen(Condition(IsReady, &Ready));
  }
  Mu.Unlock();
  Data++;
  std::printf("Data=%d\n", Data);
  return nullptr;
}

int main(int Argc, char **Argv) {
  SignallerFirst = Argc > 1 && !std::strcmp(Argv[1], "signaller-first");
  Virtual = Argc > 2 && !std::strcmp(Argv[2], "virtual");
  pthread_t W, S;
  pthread_create(&W, nullptr, Waiter, nullptr);
  invisible_wait(&WaiterStarted);
  if (!SignallerFirst) {
    // Ordering only: let the waiter block in pthread_cond_wait.
    struct timespec Ts = {0, 200 * 1000 * 1000};
    nanosleep(&Ts, nullptr);
  }
  pthread_create(&S, nullptr, Signaller, nullptr);
  pthread_join(S, nullptr);
  pthread_join(W, nullptr);
  return 0;
}
