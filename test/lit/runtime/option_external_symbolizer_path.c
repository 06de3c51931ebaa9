// external_symbolizer_path names the llvm-symbolizer to run: given one,
// frames have function, file and line; given a path that is not an
// executable, the report is still printed, with module+offset frames, after
// one line that names the path.
//
// RUN: %hrace_cc %s -o %t
// RUN: env HRACE_OPTIONS=msm=hb not sh -c 'HRACE_OPTIONS="$HRACE_OPTIONS:external_symbolizer_path=$(command -v llvm-symbolizer)" %t' 2>&1 | FileCheck %s --check-prefix=GIVEN
// RUN: env HRACE_OPTIONS=msm=hb:external_symbolizer_path=%t.missing not %t 2>&1 | FileCheck %s --check-prefix=MISSING

// GIVEN:        WARNING: HybridRace: data race
// GIVEN:          #0 {{Thread1|main}} {{.*}}option_external_symbolizer_path.c:[[#]]
// MISSING:      HybridRace: symbolizer {{.*}}.missing is not an executable; frames are printed unsymbolised
// MISSING:      WARNING: HybridRace: data race
// MISSING-NEXT:   {{Read|Write}} of size 4
// MISSING-NEXT:     #0 0x{{[0-9a-f]+}} ({{.*}}option_external_symbolizer_path.c.tmp+0x{{[0-9a-f]+}})
// MISSING:      HybridRace: reported 1 warning

#include "hrace_test_sync.h"
#include <pthread.h>

int Global;
static int Wrote;

static void *Thread1(void *Arg) {
  Global = 1;
  invisible_signal(&Wrote);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Thread1, NULL);
  // After the thread's write in time only: two stores of the shadow at the
  // same moment may keep one access and miss the race (docs/design.md,
  // Known limits).
  invisible_wait(&Wrote);
  Global = 2;
  pthread_join(T, NULL);
  return 0;
}
