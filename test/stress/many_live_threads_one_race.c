// 1,000 threads alive at once (short: 200), all past one barrier; the first
// and the last then write one global without any order between them: that
// one race is found, and only it.
//
// Not with HRACE_SMALL_LIMITS: 64 pages of segment ids per generation, and
// each of the threads takes one at its start, so the shadow is cleared
// between the two writes and the race is missed, as documented.
// UNSUPPORTED: small-limits
// RUN: %hrace_cc %s -o %t
// RUN: not %t %scale 2>&1 | FileCheck %s
// CHECK:     WARNING: HybridRace: data race
// CHECK:     SUMMARY: HybridRace: data race {{.*}} in Work
// CHECK-NOT: WARNING: HybridRace
// CHECK:     threads alive at once: all
// CHECK:     HybridRace: reported 1 warning

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_barrier_t AllAlive;
static long N;
static int *Own;
int Racy;

static void *Work(void *Arg) {
  long I = (long)Arg;
  Own[I] = 1;
  pthread_barrier_wait(&AllAlive);
  if (I == 0 || I == N - 1)
    Racy = (int)I;
  return 0;
}

int main(int Argc, char **Argv) {
  N = Argc > 1 && !strcmp(Argv[1], "full") ? 1000 : 200;
  Own = calloc(N, sizeof(int));
  pthread_t *T = calloc(N, sizeof(pthread_t));
  pthread_barrier_init(&AllAlive, 0, N);
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setstacksize(&Attr, 64 * 1024);
  for (long I = 0; I < N; I++)
    if (pthread_create(&T[I], &Attr, Work, (void *)I))
      return 1;
  for (long I = 0; I < N; I++)
    pthread_join(T[I], 0);
  long Sum = 0;
  for (long I = 0; I < N; I++)
    Sum += Own[I];
  printf("threads alive at once: %s\n", Sum == N ? "all" : "WRONG");
  return 0;
}
