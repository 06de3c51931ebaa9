// An instrumented shared library without its own runtime, loaded by an
// instrumented executable: the library's instrumentation binds to the
// executable's runtime, and a race inside the library is reported.
//
// The library has no soname: the executable records its absolute path.
// RUN: %driver_cc -fsanitize-hybrid-race -O1 -fPIC -shared -DBUILD_LIB %s -o %t.so
// RUN: nm %t.so | FileCheck %s --check-prefix=LIB
// RUN: nm --defined-only %t.so | FileCheck %s --check-prefix=DEF --implicit-check-not=__hrace_
// RUN: %driver_cc -fsanitize-hybrid-race -O1 %s %t.so -o %t
// RUN: not %t 2>&1 | FileCheck %s
// LIB:     U __hrace_
// DEF:     T bump
// CHECK:   run-shared.c:[[@LINE+8]]

#include <pthread.h>

void bump(void);

#ifdef BUILD_LIB
static int LibCounter;
void bump(void) { ++LibCounter; }
#else
static void *thread(void *Arg) {
  (void)Arg;
  bump();
  return 0;
}

int main(void) {
  pthread_t T[2];
  for (int I = 0; I < 2; ++I)
    pthread_create(&T[I], 0, thread, 0);
  for (int I = 0; I < 2; ++I)
    pthread_join(T[I], 0);
  return 0;
}
#endif
