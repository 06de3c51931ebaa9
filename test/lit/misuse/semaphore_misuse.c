// Semaphores: destroying one a thread waits on (the sleep only lets T1
// reach its wait), and posting one at its maximum value (EOVERFLOW).
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=halt_on_error=1 not %t destroy 2>&1 | FileCheck %s --check-prefix=DESTROY
// RUN: not %t overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
//
// DESTROY:      WARNING: HybridRace: destroy of a semaphore with waiting threads
// DESTROY-NEXT:   Thread T0 destroys semaphore at 0x{{[0-9a-f]+}} while 1 thread waits on it:
// DESTROY-NEXT:     #0 main {{.*}}.c:[[@LINE+30]]
// DESTROY:      SUMMARY: HybridRace: destroy-of-waited-semaphore
// OVERFLOW:      WARNING: HybridRace: post of a semaphore at its maximum value
// OVERFLOW-NEXT:   Thread T0 posts a semaphore at its maximum value (sem_post fails with EOVERFLOW):
// OVERFLOW-NEXT:     #0 main {{.*}}.c:[[@LINE+19]]
// OVERFLOW:      SUMMARY: HybridRace: semaphore-post-overflow

#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include <unistd.h>

static sem_t S;

static void *Waiter(void *Arg) {
  sem_wait(&S);
  return Arg;
}

int main(int Argc, char **Argv) {
  if (!strcmp(Argv[1], "overflow")) {
    sem_init(&S, 0, SEM_VALUE_MAX);
    sem_post(&S); // @post
    return 0;
  }
  sem_init(&S, 0, 0);
  pthread_t T;
  pthread_create(&T, 0, Waiter, 0);
  usleep(200000);
  sem_destroy(&S); // @destroy
  return 0;
}
