// -fsanitize-ignorelist (and its older name -fsanitize-blacklist) files are
// honoured, ThreadSanitizer's format unchanged: "fun:" names functions whose
// memory accesses are not checked (also when they would have been inlined),
// "src:" whole files; entries count in the [thread] section or in none.
// -fno-sanitize-ignorelist drops the lists given before it. Categories as
// clang reads them for ThreadSanitizer: a later "=sanitize" entry takes a
// function back ("fun:*" then "fun:CheckedWrite=sanitize"); an entry of
// another category ("=init", AddressSanitizer's) excludes nothing.
//
// RUN: printf 'fun:Ignored*\n' > %t.fun
// RUN: printf '[thread]\nsrc:*sanitizer-ignorelist.c\n' > %t.src
// RUN: %hrace_cc -O2 -fsanitize-ignorelist=%t.fun %s -o %t.1
// RUN: not %t.1 2>&1 | FileCheck %s --check-prefix=FUN
// RUN: %hrace_cc -O2 -fsanitize-blacklist=%t.src %s -o %t.2
// RUN: %t.2 2>&1 | FileCheck %s --check-prefix=SRC
// RUN: %hrace_cc -O2 -fsanitize-ignorelist=%t.fun -fno-sanitize-ignorelist %s -o %t.3
// RUN: not %t.3 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: printf 'fun:*\nfun:CheckedWrite=sanitize\n' > %t.back
// RUN: %hrace_cc -O2 -fsanitize-ignorelist=%t.back %s -o %t.4
// RUN: not %t.4 2>&1 | FileCheck %s --check-prefix=FUN
// RUN: printf 'fun:IgnoredWrite=init\nfun:CheckedWrite=init\n' > %t.init
// RUN: %hrace_cc -O2 -fsanitize-ignorelist=%t.init %s -o %t.5
// RUN: not %t.5 2>&1 | FileCheck %s --check-prefix=NONE
// FUN-NOT:   in IgnoredWrite
// FUN:       SUMMARY: HybridRace: data race {{.*}} in CheckedWrite
// FUN-NOT:   in IgnoredWrite
// FUN:       HybridRace: reported 1 warning
// SRC-NOT:   WARNING: HybridRace
// SRC:       done
// NONE:      HybridRace: reported 2 warnings

#include "hrace_test_sync.h"
#include <pthread.h>
#include <stdio.h>

int A, B;
static int FirstDone;

static void IgnoredWrite(int V) { A = V; }
static void CheckedWrite(int V) { B = V; }

static void *First(void *Arg) {
  (void)Arg;
  IgnoredWrite(1);
  CheckedWrite(1);
  invisible_signal(&FirstDone);
  return 0;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, First, 0);
  invisible_wait(&FirstDone);
  IgnoredWrite(2);
  CheckedWrite(2);
  pthread_join(T, 0);
  printf("done\n");
  return 0;
}
