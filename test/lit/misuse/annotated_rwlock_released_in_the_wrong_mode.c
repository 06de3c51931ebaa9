// A lock the program implements and annotates (dynamic_annotations.h):
// releasing a write hold as a read hold, and a read hold as a write hold.
//
// RUN: %hrace_cc %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
//
// CHECK:      WARNING: HybridRace: read unlock of a reader-writer lock held for writing
// CHECK-NEXT:   Thread T0 read-unlocks lock [[L:M[0-9]+]] at 0x{{[0-9a-f]+}}, which it holds for writing:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+16]]
// CHECK:      SUMMARY: HybridRace: read-unlock-of-write-held-lock
// CHECK:      WARNING: HybridRace: write unlock of a reader-writer lock held for reading
// CHECK-NEXT:   Thread T0 write-unlocks lock [[L]] at 0x{{[0-9a-f]+}}, which it holds for reading:
// CHECK-NEXT:     #0 main {{.*}}.c:[[@LINE+15]]
// CHECK:      SUMMARY: HybridRace: write-unlock-of-read-held-lock

void AnnotateRWLockAcquired(const char *File, int Line,
                            const volatile void *Lock, long IsWrite);
void AnnotateRWLockReleased(const char *File, int Line,
                            const volatile void *Lock, long IsWrite);

static int MyLock;

int main(void) {
  AnnotateRWLockAcquired(__FILE__, __LINE__, &MyLock, 1);
  AnnotateRWLockReleased(__FILE__, __LINE__, &MyLock, 0); // @read_unlock
  AnnotateRWLockReleased(__FILE__, __LINE__, &MyLock, 1);
  AnnotateRWLockAcquired(__FILE__, __LINE__, &MyLock, 0);
  AnnotateRWLockReleased(__FILE__, __LINE__, &MyLock, 1); // @write_unlock
  return 0;
}
