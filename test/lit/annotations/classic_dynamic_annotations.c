// The classic dynamic-annotations ABI (dynamic_annotations.h) links, and
// means what it says:
//  - "rwlock": AnnotateRWLockAcquired/Released make a home-made lock a
//    lock; an unprotected write racing with a write under it is reported
//    with the lock in the writer's lock set;
//  - "condvar", "pcq": a signal or a put happens before the wait or get;
//  - "publish": a published range's earlier writes race with nothing after;
//  - "disabled": AnnotateEnableRaceDetection(0) hides the thread's accesses;
//  - the rest (WTF aliases, RunningOnValgrind, no-ops) links and runs.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t rwlock 2>&1 | FileCheck %s --check-prefix=RWLOCK
// RUN: %t condvar 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: %t pcq 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: %t publish 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: %t disabled 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb %t pcq 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: env HRACE_OPTIONS=msm=hb not %t rwlock 2>&1 | FileCheck %s --check-prefix=RWLOCK
// RWLOCK:      WARNING: HybridRace: data race
// RWLOCK-NEXT:   Write of size 4 at [[ADDR:0x[0-9a-f]+]] by thread T2 (locks held: none):
// RWLOCK:        Previous write of size 4 at [[ADDR]] by thread T1 (locks held: {M1}):
// QUIET-NOT:   WARNING: HybridRace
// QUIET:       done, running on valgrind: 0

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

// The prototypes of dynamic_annotations.h.
void AnnotateRWLockCreate(const char *, int, const volatile void *);
void AnnotateRWLockDestroy(const char *, int, const volatile void *);
void AnnotateRWLockAcquired(const char *, int, const volatile void *, long);
void AnnotateRWLockReleased(const char *, int, const volatile void *, long);
void AnnotateCondVarSignal(const char *, int, const volatile void *);
void AnnotateCondVarSignalAll(const char *, int, const volatile void *);
void AnnotateCondVarWait(const char *, int, const volatile void *,
                         const volatile void *);
void AnnotatePCQCreate(const char *, int, const volatile void *);
void AnnotatePCQPut(const char *, int, const volatile void *);
void AnnotatePCQGet(const char *, int, const volatile void *);
void AnnotatePCQDestroy(const char *, int, const volatile void *);
void AnnotatePublishMemoryRange(const char *, int, const volatile void *, long);
void AnnotateUnpublishMemoryRange(const char *, int, const volatile void *,
                                  long);
void AnnotateNewMemory(const char *, int, const volatile void *, long);
void AnnotateBenignRace(const char *, int, const volatile void *, const char *);
void AnnotateEnableRaceDetection(const char *, int, int);
void AnnotateIgnoreSyncBegin(const char *, int);
void AnnotateIgnoreSyncEnd(const char *, int);
void AnnotateMutexIsUsedAsCondVar(const char *, int, const volatile void *);
void AnnotateMutexIsNotPHB(const char *, int, const volatile void *);
void AnnotateFlushState(const char *, int);
void WTFAnnotateHappensBefore(const char *, int, const volatile void *);
void WTFAnnotateHappensAfter(const char *, int, const volatile void *);
void WTFAnnotateBenignRaceSized(const char *, int, const volatile void *,
                                size_t, const char *);
int RunningOnValgrind(void);

static const char *Mode;
static int Lock, Queue, Cond, FirstDone;
int Data[4];
int Spare;

static int Is(const char *M) { return !strcmp(Mode, M); }

static void *First(void *Arg) {
  (void)Arg;
  if (Is("rwlock")) {
    AnnotateRWLockAcquired(__FILE__, __LINE__, &Lock, 1);
    Data[0] = 1;
    AnnotateRWLockReleased(__FILE__, __LINE__, &Lock, 1);
  } else if (Is("disabled")) {
    AnnotateEnableRaceDetection(__FILE__, __LINE__, 0);
    Data[0] = 1;
    AnnotateEnableRaceDetection(__FILE__, __LINE__, 1);
  } else {
    Data[0] = 1;
    Data[3] = 3;
    if (Is("condvar"))
      AnnotateCondVarSignalAll(__FILE__, __LINE__, &Cond);
    if (Is("pcq"))
      AnnotatePCQPut(__FILE__, __LINE__, &Queue);
    if (Is("publish"))
      AnnotatePublishMemoryRange(__FILE__, __LINE__, Data, sizeof(Data));
  }
  invisible_signal(&FirstDone);
  return 0;
}

static void *Second(void *Arg) {
  (void)Arg;
  // Ordering only: the first thread's accesses come first.
  invisible_wait(&FirstDone);
  if (Is("condvar"))
    AnnotateCondVarWait(__FILE__, __LINE__, &Cond, &Lock);
  if (Is("pcq"))
    AnnotatePCQGet(__FILE__, __LINE__, &Queue);
  Data[0] = 2;
  return 0;
}

int main(int Argc, char **Argv) {
  Mode = Argc > 1 ? Argv[1] : "condvar";
  AnnotateRWLockCreate(__FILE__, __LINE__, &Lock);
  AnnotatePCQCreate(__FILE__, __LINE__, &Queue);
  AnnotateNewMemory(__FILE__, __LINE__, Data, sizeof(Data));
  AnnotateBenignRace(__FILE__, __LINE__, &Spare, "never raced on");
  AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
  AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
  AnnotateMutexIsUsedAsCondVar(__FILE__, __LINE__, &Lock);
  AnnotateMutexIsNotPHB(__FILE__, __LINE__, &Lock);
  AnnotateFlushState(__FILE__, __LINE__);
  WTFAnnotateHappensBefore(__FILE__, __LINE__, &Spare);
  WTFAnnotateHappensAfter(__FILE__, __LINE__, &Spare);
  WTFAnnotateBenignRaceSized(__FILE__, __LINE__, &Spare, sizeof(Spare), "");
  pthread_t A, B;
  pthread_create(&A, 0, First, 0);
  pthread_create(&B, 0, Second, 0);
  pthread_join(A, 0);
  pthread_join(B, 0);
  AnnotateUnpublishMemoryRange(__FILE__, __LINE__, Data, sizeof(Data));
  AnnotatePCQDestroy(__FILE__, __LINE__, &Queue);
  AnnotateRWLockDestroy(__FILE__, __LINE__, &Lock);
  printf("done, running on valgrind: %d\n", RunningOnValgrind());
  return 0;
}
