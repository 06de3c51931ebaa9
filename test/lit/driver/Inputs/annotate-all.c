// Uses every annotation; compiled as C and as C++ by annotations.test.
#include <hrace/annotations.h>

static int Flag;
static char Buffer[16];

void annotate(void) {
  ANNOTATE_HAPPENS_BEFORE(&Flag);
  ANNOTATE_HAPPENS_AFTER(&Flag);
  ANNOTATE_BENIGN_RACE_SIZED(Buffer, sizeof(Buffer), "buffer");
  ANNOTATE_BENIGN_RACE(&Flag, "flag");
  ANNOTATE_IGNORE_READS_BEGIN();
  ANNOTATE_IGNORE_READS_END();
  ANNOTATE_IGNORE_WRITES_BEGIN();
  ANNOTATE_IGNORE_WRITES_END();
  ANNOTATE_IGNORE_READS_AND_WRITES_BEGIN();
  Flag = Buffer[0];
  ANNOTATE_IGNORE_READS_AND_WRITES_END();
  ANNOTATE_THREAD_NAME("worker");
}
