// 3,000 dlopen/dlclose cycles (short: 300) of an instrumented shared object
// whose global a worker thread updates in every cycle, handed to it and back
// through a mutex and a condition variable: the process finishes and reports
// nothing.
//
// RUN: %hrace_cc -fPIC -shared %S/Inputs/dlopen_plugin.c -o %t.so
// RUN: %hrace_cc %s -o %t -ldl
// RUN: %t %scale %t.so 2>&1 | FileCheck %s
// CHECK-NOT: WARNING: HybridRace
// CHECK:     dlopen cycles done
// CHECK-NOT: WARNING: HybridRace

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static int (*Touch)(int);
static int Turn; // 0: main's, 1: the worker's; 2: stop

static void *Worker(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&M);
  for (;;) {
    while (Turn == 0)
      pthread_cond_wait(&C, &M);
    if (Turn == 2)
      break;
    Touch(1);
    Turn = 0;
    pthread_cond_broadcast(&C);
  }
  pthread_mutex_unlock(&M);
  return 0;
}

int main(int Argc, char **Argv) {
  int N = Argc > 1 && !strcmp(Argv[1], "full") ? 3000 : 300;
  pthread_t W;
  pthread_create(&W, 0, Worker, 0);
  for (int I = 0; I < N; I++) {
    void *H = dlopen(Argv[2], RTLD_NOW);
    if (!H) {
      printf("dlopen failed: %s\n", dlerror());
      return 1;
    }
    int (*F)(int) = (int (*)(int))dlsym(H, "PluginTouch");
    F(1);
    pthread_mutex_lock(&M);
    Touch = F;
    Turn = 1;
    pthread_cond_broadcast(&C);
    while (Turn == 1)
      pthread_cond_wait(&C, &M);
    pthread_mutex_unlock(&M);
    dlclose(H);
  }
  pthread_mutex_lock(&M);
  Turn = 2;
  pthread_cond_broadcast(&C);
  pthread_mutex_unlock(&M);
  pthread_join(W, 0);
  printf("dlopen cycles done\n");
  return 0;
}
