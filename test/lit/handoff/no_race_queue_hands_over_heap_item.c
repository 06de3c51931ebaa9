// A producer fills heap items without holding any lock and pushes them on a
// mutex-protected linked queue; the consumer pops them, reads and modifies
// every field and frees item and node. Locks do not order threads in the
// hybrid machines: what orders the consumer's use of an item after the
// producer's filling is the hand-off (the consumer read, under the lock,
// Q.Head and Node->Item, which the producer wrote under it: the node and the
// item are in the hand-off's scope) and the marked loop in which it waited
// (the condition-variable loop, or the polling loop, marked as well).
//
// "poll": the consumer re-takes the lock and yields until Pop finds a node.
// "wait": the consumer waits on a condition variable while the queue is
// empty. "producer-first": all three items are queued before the consumer
// looks; "consumer-first": the consumer is polling or blocked first.
//
// RUN: %hrace_cc -O0 %s -o %t.O0 && %hrace_cc -O2 %s -o %t.O2
// RUN: %t.O0 poll producer-first 2>&1 | FileCheck %s
// RUN: %t.O2 poll producer-first 2>&1 | FileCheck %s
// RUN: %t.O0 poll consumer-first 2>&1 | FileCheck %s
// RUN: %t.O2 poll consumer-first 2>&1 | FileCheck %s
// RUN: %t.O0 wait producer-first 2>&1 | FileCheck %s
// RUN: %t.O2 wait producer-first 2>&1 | FileCheck %s
// RUN: %t.O0 wait consumer-first 2>&1 | FileCheck %s
// RUN: %t.O2 wait consumer-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O0 poll producer-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=long %t.O2 wait consumer-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O0 poll consumer-first 2>&1 | FileCheck %s
// RUN: env HRACE_OPTIONS=msm=hb %t.O2 wait producer-first 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     sum=69.0 names=abc

#include "hrace_test_sync.h"
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct Item { int a; double b; char name[16]; };
struct Node { struct Item *Item; struct Node *Next; };

static struct {
  pthread_mutex_t Mu;
  pthread_cond_t Cv;
  struct Node *Head, *Tail;
} Q = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL};

static int Poll, ProducerFirst, AllPushed;

static void Push(struct Item *It) {
  struct Node *N = malloc(sizeof(*N));
  pthread_mutex_lock(&Q.Mu);
  N->Item = It;
  N->Next = NULL;
  if (Q.Tail)
    Q.Tail->Next = N;
  else
    Q.Head = N;
  Q.Tail = N;
  pthread_cond_signal(&Q.Cv);
  pthread_mutex_unlock(&Q.Mu);
}

// Called with Q.Mu held; returns NULL when the queue is empty.
static struct Item *Pop(struct Node **Out) {
  struct Node *N = Q.Head;
  if (!N)
    return NULL;
  Q.Head = N->Next;
  if (!Q.Head)
    Q.Tail = NULL;
  *Out = N;
  return N->Item;
}

static void *Producer(void *Arg) {
  for (int I = 0; I < 3; I++) {
    struct Item *It = malloc(sizeof(*It));
    It->a = 10 * (I + 1);
    It->b = 0.5 * (I + 1);
    snprintf(It->name, sizeof(It->name), "%c", 'a' + I);
    Push(It);
  }
  invisible_signal(&AllPushed);
  return Arg;
}

static void *Consumer(void *Arg) {
  double Sum = 0;
  char Names[4] = {0};
  // Ordering only: in "producer-first" the queue holds all three items
  // before the consumer looks; the mutex (and hand-off) then orders it.
  if (ProducerFirst)
    invisible_wait(&AllPushed);
  for (int I = 0; I < 3; I++) {
    struct Item *It; struct Node *N;
    if (Poll) {
      for (;;) {
        pthread_mutex_lock(&Q.Mu);
        It = Pop(&N);
        pthread_mutex_unlock(&Q.Mu);
        if (It)
          break;
        sched_yield();
      }
    } else {
      pthread_mutex_lock(&Q.Mu);
      while (!Q.Head)
        pthread_cond_wait(&Q.Cv, &Q.Mu);
      It = Pop(&N);
      pthread_mutex_unlock(&Q.Mu);
    }
    It->a += 1;
    It->b *= 2;
    It->name[1] = '!';
    Sum += It->a + It->b;
    Names[I] = It->name[0];
    free(It);
    free(N);
  }
  printf("sum=%.1f names=%s\n", Sum, Names);
  return Arg;
}

int main(int Argc, char **Argv) {
  Poll = Argc > 1 && !strcmp(Argv[1], "poll");
  ProducerFirst = Argc > 2 && !strcmp(Argv[2], "producer-first");
  pthread_t C, P;
  pthread_create(&C, NULL, Consumer, NULL);
  if (!ProducerFirst) {
    // Ordering only: let the consumer start polling or block first.
    struct timespec Ts = {0, 200 * 1000 * 1000};
    nanosleep(&Ts, NULL);
  }
  pthread_create(&P, NULL, Producer, NULL);
  pthread_join(P, NULL);
  pthread_join(C, NULL);
  return 0;
}
