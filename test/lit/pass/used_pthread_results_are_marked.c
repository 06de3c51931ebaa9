// A call to a pthreads or semaphore function whose result the program uses
// is preceded by __hrace_result_checked(the function): the runtime then
// leaves its errors to the program. A call whose result is dropped is not
// marked (its errors are reported), nor is any other function's call.
// RUN: %clang --target=x86_64-linux-gnu -O1 -fpass-plugin=%plugin -S -emit-llvm %s -o - | FileCheck %s

#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

int checked(pthread_mutex_t *M, sem_t *S) {
  if (pthread_mutex_destroy(M))
    return 1;
  return sem_post(S);
}
// CHECK-LABEL: define {{.*}}@checked(
// CHECK:       call void @__hrace_result_checked({{.*}}@pthread_mutex_destroy
// CHECK-NEXT:  call {{.*}}i32 @pthread_mutex_destroy(
// CHECK:       call void @__hrace_result_checked({{.*}}@sem_post
// CHECK-NEXT:  call {{.*}}i32 @sem_post(

int Result;

void ignored(pthread_mutex_t *M) {
  pthread_mutex_lock(M);
  Result = pthread_mutex_unlock(M);
  pthread_mutex_unlock(M);
}
// CHECK-LABEL: define {{.*}}@ignored(
// CHECK-NOT:   __hrace_result_checked({{.*}}@pthread_mutex_lock
// CHECK:       call void @__hrace_result_checked({{.*}}@pthread_mutex_unlock
// CHECK-NEXT:  call {{.*}}i32 @pthread_mutex_unlock(
// CHECK-NOT:   __hrace_result_checked
// CHECK:       ret void

int other(const char *S) { return atoi(S); }
// CHECK-LABEL: define {{.*}}@other(
// CHECK-NOT:   __hrace_result_checked
// CHECK:       ret i32
