//===-- hrace_symbolizer.cpp - Code and data addresses to source ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_symbolizer.h"

#include "hrace_libc.h"
#include "hrace_rtl.h"

#include <errno.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

namespace hrace {

namespace {

// One llvm-symbolizer child, spoken to over a socket. A child that does not
// answer in symbolizer_timeout seconds (hung, or printing something that is
// not an answer) or that dies is killed, reaped and started again once; after
// a second failure, or if none can be started, frames stay unsymbolised and
// the reports say so once (TakeSymbolizerNotice).
struct SymbolizerProcess {
  bool started;
  bool failed;
  u32 restarts;
  int fd;
  pid_t pid;
  char path[512];
  char notice[768];
  bool notice_pending;
};
SymbolizerProcess symbolizer;

constexpr u32 kMaxRestarts = 1;

bool IsExecutable(const char *path) { return path[0] && !access(path, X_OK); }

bool FindSymbolizer(char *out, uptr size) {
  const char *flag = ctx->flags.external_symbolizer_path;
  if (flag[0]) {
    internal_strlcpy(out, flag, size);
    return IsExecutable(out);
  }
  // The llvm-symbolizer of the LLVM HybridRace was built with understands the
  // debug info that LLVM's clang emits.
  TextBuffer candidate(out, size);
  candidate.Append("%s/llvm-symbolizer", HRACE_LLVM_TOOLS_DIR);
  if (IsExecutable(out))
    return true;
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *colon = internal_strchr(path, ':');
    uptr len = colon ? static_cast<uptr>(colon - path) : internal_strlen(path);
    candidate.Clear();
    candidate.Append("%.*s/llvm-symbolizer", static_cast<int>(len), path);
    if (IsExecutable(out))
      return true;
    path = colon ? colon + 1 : nullptr;
  }
  internal_strlcpy(out, "llvm-symbolizer", size);
  return false;
}

void GiveUp(const char *why) {
  symbolizer.failed = true;
  TextBuffer text(symbolizer.notice, sizeof(symbolizer.notice));
  text.Append("HybridRace: symbolizer %s %s; frames are printed "
              "unsymbolised (set external_symbolizer_path, or symbolize=0)\n",
              symbolizer.path, why);
  symbolizer.notice_pending = true;
}

bool Spawn() {
  // A socket rather than pipes: send(MSG_NOSIGNAL) cannot raise SIGPIPE in the
  // program if the symbolizer dies.
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
    return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  char inlines[] = "--inlines";
  char demangle[] = "--demangle";
  char *argv[] = {symbolizer.path, inlines, demangle, nullptr};
  // posix_spawn does not run the program's fork handlers.
  int err = posix_spawn(&symbolizer.pid, symbolizer.path, &actions, nullptr,
                        argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err) {
    close(fds[0]);
    return false;
  }
  symbolizer.fd = fds[0];
  return true;
}

// The child is not trusted to exit on its own: kill it and reap it, so that
// it neither lingers nor turns into a zombie.
void Stop() {
  close(symbolizer.fd);
  kill(symbolizer.pid, SIGKILL);
  while (waitpid(symbolizer.pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

bool Start() {
  if (symbolizer.started)
    return !symbolizer.failed;
  symbolizer.started = true;
  if (!ctx->flags.symbolize) {
    symbolizer.failed = true;
    return false;
  }
  if (!FindSymbolizer(symbolizer.path, sizeof(symbolizer.path))) {
    GiveUp(ctx->flags.external_symbolizer_path[0]
               ? "is not an executable"
               : "was found neither next to the clang HybridRace was built "
                 "with nor in PATH");
    return false;
  }
  if (!Spawn()) {
    GiveUp("could not be started");
    return false;
  }
  return true;
}

u64 MonotonicMs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<u64>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

enum class Answer { kComplete, kFailed, kTimedOut };

// Sends one request and reads the answer up to its terminating blank line,
// giving the child symbolizer_timeout seconds for it.
Answer Exchange(const char *request, char *answer, uptr size) {
  uptr len = internal_strlen(request);
  while (len) {
    ssize_t n = send(symbolizer.fd, request, len, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return Answer::kFailed;
    request += n;
    len -= n;
  }
  u64 deadline = MonotonicMs() + 1000 * ctx->flags.symbolizer_timeout;
  uptr got = 0;
  for (;;) {
    // Output that never ends with a blank line fills the buffer: garbage.
    if (got + 1 >= size)
      return Answer::kFailed;
    u64 now = MonotonicMs();
    if (now >= deadline)
      return Answer::kTimedOut;
    struct pollfd p = {symbolizer.fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(deadline - now));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      return Answer::kFailed;
    if (!ready)
      return Answer::kTimedOut;
    ssize_t n = read(symbolizer.fd, answer + got, size - 1 - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return Answer::kFailed;
    got += n;
    answer[got] = 0;
    if (got >= 2 && answer[got - 1] == '\n' && answer[got - 2] == '\n')
      return Answer::kComplete;
  }
}

} // namespace

void SymbolizerForkChild() {
  // The parent's child: not this process's to kill or reap.
  if (symbolizer.started && !symbolizer.failed)
    close(symbolizer.fd);
  symbolizer.started = false;
  symbolizer.failed = false;
  symbolizer.restarts = 0;
  symbolizer.notice_pending = false;
}

bool TakeSymbolizerNotice(char *out, uptr size) {
  if (!symbolizer.notice_pending)
    return false;
  symbolizer.notice_pending = false;
  internal_strlcpy(out, symbolizer.notice, size);
  return true;
}

namespace {

bool Query(const char *request, char *answer, uptr size) {
  if (!Start())
    return false;
  for (;;) {
    Answer a = Exchange(request, answer, size);
    if (a == Answer::kComplete)
      return true;
    Stop();
    if (symbolizer.restarts == kMaxRestarts) {
      GiveUp(a == Answer::kTimedOut
                 ? "did not answer in symbolizer_timeout seconds, twice"
                 : "failed twice (it exited or answered with something "
                   "else than frames)");
      return false;
    }
    symbolizer.restarts++;
    if (!Spawn()) {
      GiveUp("could not be restarted");
      return false;
    }
  }
}

struct ModuleLookup {
  uptr addr;
  char *path;
  uptr path_size;
  uptr bias;
  bool found;
};

int FindModuleCallback(struct dl_phdr_info *info, size_t, void *arg) {
  ModuleLookup *m = static_cast<ModuleLookup *>(arg);
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD)
      continue;
    uptr beg = info->dlpi_addr + ph.p_vaddr;
    if (m->addr < beg || m->addr >= beg + ph.p_memsz)
      continue;
    if (info->dlpi_name && info->dlpi_name[0]) {
      internal_strlcpy(m->path, info->dlpi_name, m->path_size);
    } else {
      // The main executable has no name here.
      ssize_t n = readlink("/proc/self/exe", m->path, m->path_size - 1);
      m->path[n > 0 ? n : 0] = 0;
    }
    m->bias = info->dlpi_addr;
    m->found = true;
    return 1;
  }
  return 0;
}

bool FindModule(uptr addr, char *path, uptr path_size, uptr *offset) {
  ModuleLookup m = {addr, path, path_size, 0, false};
  dl_iterate_phdr(FindModuleCallback, &m);
  if (!m.found)
    return false;
  *offset = addr - m.bias;
  return true;
}

const char *NextLine(const char *p, char *line, uptr size) {
  const char *nl = internal_strchr(p, '\n');
  uptr len = nl ? static_cast<uptr>(nl - p) : internal_strlen(p);
  internal_strlcpy(line, p, len + 1 < size ? len + 1 : size);
  return nl ? nl + 1 : p + len;
}

// "file:line:col" with a file name that may itself contain ':'.
void ParseFileLine(const char *text, SymbolizedFrame *f) {
  char buf[sizeof(f->file)];
  internal_strlcpy(buf, text, sizeof(buf));
  f->line = f->column = 0;
  for (int field = 0; field < 2; field++) {
    char *colon = const_cast<char *>(internal_strrchr(buf, ':'));
    if (!colon)
      break;
    int value = atoi(colon + 1);
    *colon = 0;
    f->column = f->line;
    f->line = value;
  }
  if (internal_strcmp(buf, "??"))
    internal_strlcpy(f->file, buf, sizeof(f->file));
}

} // namespace

u32 SymbolizeCode(uptr pc, SymbolizedFrame *frames, u32 max_frames) {
  SymbolizedFrame *f = &frames[0];
  internal_memset(f, 0, sizeof(*f));
  if (!FindModule(pc, f->module, sizeof(f->module), &f->module_offset))
    return 1;
  char request[640], answer[8192];
  TextBuffer req(request, sizeof(request));
  req.Append("CODE \"%s\" 0x%zx\n", f->module, f->module_offset);
  if (!Query(request, answer, sizeof(answer)))
    return 1;
  u32 n = 0;
  const char *p = answer;
  char line[768];
  while (n < max_frames && *p && *p != '\n') {
    SymbolizedFrame *cur = &frames[n];
    if (n) {
      internal_memset(cur, 0, sizeof(*cur));
      internal_memcpy(cur->module, f->module, sizeof(cur->module));
      cur->module_offset = f->module_offset;
    }
    p = NextLine(p, line, sizeof(line));
    if (internal_strcmp(line, "??"))
      internal_strlcpy(cur->function, line, sizeof(cur->function));
    p = NextLine(p, line, sizeof(line));
    ParseFileLine(line, cur);
    n++;
  }
  return n ? n : 1;
}

bool SymbolizeData(uptr addr, char *name, uptr name_size, uptr *start,
                   uptr *size, char *module, uptr module_size,
                   uptr *module_offset) {
  if (!FindModule(addr, module, module_size, module_offset))
    return false;
  char request[640], answer[2048];
  TextBuffer req(request, sizeof(request));
  req.Append("DATA \"%s\" 0x%zx\n", module, *module_offset);
  if (!Query(request, answer, sizeof(answer)))
    return false;
  char line[512];
  const char *p = NextLine(answer, line, sizeof(line));
  if (!internal_strcmp(line, "??") || !line[0])
    return false;
  internal_strlcpy(name, line, name_size);
  NextLine(p, line, sizeof(line));
  char *end;
  uptr file_start = strtoull(line, &end, 10);
  *size = strtoull(end, nullptr, 10);
  // The answer is in file addresses; report run-time addresses.
  *start = addr - *module_offset + file_start;
  return true;
}

} // namespace hrace
