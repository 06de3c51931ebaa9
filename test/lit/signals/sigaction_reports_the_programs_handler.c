// The runtime puts its own handler in front of the program's, but the
// program only ever sees its own: sigaction and signal return the handler
// and flags it installed, SA_RESETHAND still resets after one delivery, and
// SIG_IGN and SIG_DFL go to the kernel unchanged.
//
// RUN: %hrace_cc %s -o %t && %t 2>&1 | FileCheck %s
// CHECK: old handler is First: yes
// CHECK: old flags keep SA_RESTART: yes, SA_SIGINFO: no
// CHECK: signal() returns Second: yes
// CHECK: raise ran Third once
// CHECK: after SA_RESETHAND the handler is SIG_DFL: yes
// CHECK: SIG_IGN ignores: yes

#include <signal.h>
#include <stdio.h>

int Calls;
static void First(int Sig) { (void)Sig; }
static void Second(int Sig) { (void)Sig; }
static void Third(int Sig) {
  (void)Sig;
  Calls++;
}

int main(void) {
  struct sigaction Act = {0}, Old = {0};
  Act.sa_handler = First;
  Act.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &Act, 0);
  Act.sa_handler = Second;
  Act.sa_flags = 0;
  sigaction(SIGUSR1, &Act, &Old);
  printf("old handler is First: %s\n", Old.sa_handler == First ? "yes" : "no");
  printf("old flags keep SA_RESTART: %s, SA_SIGINFO: %s\n",
         Old.sa_flags & SA_RESTART ? "yes" : "no",
         Old.sa_flags & SA_SIGINFO ? "yes" : "no");
  printf("signal() returns Second: %s\n",
         signal(SIGUSR1, SIG_DFL) == Second ? "yes" : "no");
  Act.sa_handler = Third;
  Act.sa_flags = SA_RESETHAND;
  sigaction(SIGUSR1, &Act, 0);
  raise(SIGUSR1);
  printf("raise ran Third %s\n", Calls == 1 ? "once" : "not once");
  sigaction(SIGUSR1, 0, &Old);
  printf("after SA_RESETHAND the handler is SIG_DFL: %s\n",
         Old.sa_handler == SIG_DFL ? "yes" : "no");
  signal(SIGUSR2, SIG_IGN);
  raise(SIGUSR2);
  printf("SIG_IGN ignores: yes\n");
  return 0;
}
