//===-- hrace/annotations.h - Source annotations for HybridRace -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tells the race detector about synchronization it cannot see and about races
// the program tolerates. For C and C++.
//
// The macros call the runtime when the file is built with
// -fsanitize-hybrid-race (which defines __SANITIZE_HYBRID_RACE__) and expand
// to nothing otherwise, so annotated code builds and runs unchanged without
// the detector; their arguments are then not evaluated.
//
// Every macro is an expression statement: use it followed by ';'.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_ANNOTATIONS_H
#define HRACE_ANNOTATIONS_H

#ifdef __SANITIZE_HYBRID_RACE__

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Implemented by the runtime, which is always linked into a program built
// with -fsanitize-hybrid-race. file and line locate the annotation in
// reports and diagnostics.
#define HRACE_ANNOTATION_API __attribute__((visibility("default")))

HRACE_ANNOTATION_API void AnnotateHappensBefore(const char *file, int line,
                                                const volatile void *addr);
HRACE_ANNOTATION_API void AnnotateHappensAfter(const char *file, int line,
                                               const volatile void *addr);
HRACE_ANNOTATION_API void AnnotateBenignRaceSized(const char *file, int line,
                                                  const volatile void *addr,
                                                  size_t size,
                                                  const char *description);
HRACE_ANNOTATION_API void AnnotateIgnoreReadsBegin(const char *file, int line);
HRACE_ANNOTATION_API void AnnotateIgnoreReadsEnd(const char *file, int line);
HRACE_ANNOTATION_API void AnnotateIgnoreWritesBegin(const char *file, int line);
HRACE_ANNOTATION_API void AnnotateIgnoreWritesEnd(const char *file, int line);
HRACE_ANNOTATION_API void AnnotateThreadName(const char *file, int line,
                                             const char *name);
HRACE_ANNOTATION_API void AnnotateMutexIsUsedAsCondVar(const char *file,
                                                       int line,
                                                       const volatile void *mu);

#ifdef __cplusplus
}
#endif

// Everything the calling thread did before ANNOTATE_HAPPENS_BEFORE(addr)
// happens before everything a thread does after a later
// ANNOTATE_HAPPENS_AFTER(addr) on the same address: the detector adds that
// edge, as if the two were a release and an acquire of a lock at addr. For
// hand-written synchronization it cannot see, such as a flag polled with
// plain loads or a lock-free queue built on inline assembly.
#define ANNOTATE_HAPPENS_BEFORE(addr)                                          \
  AnnotateHappensBefore(__FILE__, __LINE__, (addr))
#define ANNOTATE_HAPPENS_AFTER(addr)                                           \
  AnnotateHappensAfter(__FILE__, __LINE__, (addr))

// Accesses to the size bytes at addr, by any thread, are never reported as
// races; description says why the race is acceptable (e.g. "statistics
// counter"). ANNOTATE_BENIGN_RACE covers the object ptr points to.
#define ANNOTATE_BENIGN_RACE_SIZED(addr, size, description)                    \
  AnnotateBenignRaceSized(__FILE__, __LINE__, (addr), (size), (description))
#define ANNOTATE_BENIGN_RACE(ptr, description)                                 \
  ANNOTATE_BENIGN_RACE_SIZED((ptr), sizeof(*(ptr)), (description))

// Between BEGIN and END the calling thread's reads (or writes) are not
// checked. Each BEGIN needs an END on the same thread.
#define ANNOTATE_IGNORE_READS_BEGIN()                                          \
  AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define ANNOTATE_IGNORE_READS_END() AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#define ANNOTATE_IGNORE_WRITES_BEGIN()                                         \
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__)
#define ANNOTATE_IGNORE_WRITES_END() AnnotateIgnoreWritesEnd(__FILE__, __LINE__)
#define ANNOTATE_IGNORE_READS_AND_WRITES_BEGIN()                               \
  (ANNOTATE_IGNORE_READS_BEGIN(), ANNOTATE_IGNORE_WRITES_BEGIN())
#define ANNOTATE_IGNORE_READS_AND_WRITES_END()                                 \
  (ANNOTATE_IGNORE_WRITES_END(), ANNOTATE_IGNORE_READS_END())

// Names the calling thread in reports.
#define ANNOTATE_THREAD_NAME(name)                                             \
  AnnotateThreadName(__FILE__, __LINE__, (name))

// The mutex at mu orders its critical sections (an unlock happens before
// the next lock) in every machine, as all mutexes do in msm=hb: for data
// handed over through it in ways the hybrid machines' write/read relations
// do not follow. The name and the call are dynamic_annotations.h's.
#define ANNOTATE_PURE_HAPPENS_BEFORE_MUTEX(mu)                                 \
  AnnotateMutexIsUsedAsCondVar(__FILE__, __LINE__, (mu))

#else // !__SANITIZE_HYBRID_RACE__

#define ANNOTATE_HAPPENS_BEFORE(addr) ((void)0)
#define ANNOTATE_HAPPENS_AFTER(addr) ((void)0)
#define ANNOTATE_BENIGN_RACE_SIZED(addr, size, description) ((void)0)
#define ANNOTATE_BENIGN_RACE(ptr, description) ((void)0)
#define ANNOTATE_IGNORE_READS_BEGIN() ((void)0)
#define ANNOTATE_IGNORE_READS_END() ((void)0)
#define ANNOTATE_IGNORE_WRITES_BEGIN() ((void)0)
#define ANNOTATE_IGNORE_WRITES_END() ((void)0)
#define ANNOTATE_IGNORE_READS_AND_WRITES_BEGIN() ((void)0)
#define ANNOTATE_IGNORE_READS_AND_WRITES_END() ((void)0)
#define ANNOTATE_THREAD_NAME(name) ((void)0)
#define ANNOTATE_PURE_HAPPENS_BEFORE_MUTEX(mu) ((void)0)

#endif // __SANITIZE_HYBRID_RACE__

#endif // HRACE_ANNOTATIONS_H
