//===-- hrace-driver.cpp - clang wrapper for -fsanitize-hybrid-race -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// hrace-clang / hrace-clang++ (and clang, clang++, cc, c++ in
// libexec/hrace/bin): runs the real clang, and when -fsanitize-hybrid-race is
// on the command line, adds what an instrumented build needs: the pass
// plugin and debug line info when compiling, the runtime when linking an
// executable. Without the flag the command line is passed through untouched.
//
// The driver replaces itself with clang (execv) so clang's exit status,
// signals and output are the driver's.
//
//===----------------------------------------------------------------------===//

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#ifndef HRACE_LLVM_TOOLS_DIR
#error "HRACE_LLVM_TOOLS_DIR must name the bin/ of the LLVM the plugin is for"
#endif

namespace {

using Args = std::vector<std::string>;

const char kEnableFlag[] = "-fsanitize-hybrid-race";
const char kDisableFlag[] = "-fno-sanitize-hybrid-race";
// Also instruments for the non-deterministic read checker
// (HRACE_OPTIONS=ndr=1); implies kEnableFlag.
const char kNdrFlag[] = "-fsanitize-hybrid-race-ndr";
const char kNoNdrFlag[] = "-fno-sanitize-hybrid-race-ndr";

[[noreturn]] void fatal(const std::string &Msg) {
  std::fprintf(stderr, "hrace: error: %s\n", Msg.c_str());
  std::exit(1);
}

std::string dirName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  if (Slash == std::string::npos)
    return ".";
  return Slash == 0 ? "/" : Path.substr(0, Slash);
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

bool isRegularFile(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

// Same inode: catches the driver under a symlink or a hard link alike.
bool isSameFile(const std::string &A, const std::string &B) {
  struct stat StA, StB;
  return stat(A.c_str(), &StA) == 0 && stat(B.c_str(), &StB) == 0 &&
         StA.st_dev == StB.st_dev && StA.st_ino == StB.st_ino;
}

// The driver's own file with every symlink resolved. argv[0] would be the
// name it was called by, possibly relative or found through PATH.
std::string selfExecutable() {
  char Buf[PATH_MAX];
  ssize_t Len = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (Len < 0)
    fatal(std::string("cannot read /proc/self/exe: ") + std::strerror(errno));
  Buf[Len] = '\0';
  return Buf;
}

// hrace-clang++, clang++, c++, clang++-14, ...: the C++ compiler's names all
// contain "++", and only they do.
bool invokedAsCxx(const std::string &InvokedName) {
  return InvokedName.find("++") != std::string::npos;
}

// What execvp would run, so a bare HRACE_CLANG=clang-14 works and can be
// checked against the driver itself. Name itself when nothing matches, which
// lets execv report the error.
std::string searchPath(const std::string &Name) {
  const char *Path = std::getenv("PATH");
  if (!Path)
    return Name;
  const std::string Dirs = Path;
  size_t Begin = 0;
  while (Begin <= Dirs.size()) {
    size_t End = Dirs.find(':', Begin);
    if (End == std::string::npos)
      End = Dirs.size();
    // An empty PATH entry means the current directory.
    std::string Dir = End == Begin ? "." : Dirs.substr(Begin, End - Begin);
    std::string Candidate = Dir + "/" + Name;
    if (access(Candidate.c_str(), X_OK) == 0 && isRegularFile(Candidate))
      return Candidate;
    Begin = End + 1;
  }
  return Name;
}

// The clang to run. Never looked up by name in PATH by default: in
// libexec/hrace/bin the driver itself is "clang", so the default is the
// clang of the LLVM the plugin was built against.
std::string realCompiler(bool Cxx, const std::string &Self) {
  const char *EnvName = Cxx ? "HRACE_CLANGXX" : "HRACE_CLANG";
  const char *Env = std::getenv(EnvName);
  std::string Compiler = Env && *Env ? Env
                                     : std::string(HRACE_LLVM_TOOLS_DIR) +
                                           (Cxx ? "/clang++" : "/clang");
  if (Compiler.find('/') == std::string::npos)
    Compiler = searchPath(Compiler);
  if (isSameFile(Compiler, Self))
    fatal("the compiler to run, '" + Compiler + "', is this driver (" + Self +
          "); set " + EnvName + " to the real clang");
  return Compiler;
}

// The install prefix: the driver is <prefix>/bin/hrace-clang, or a hard link
// or copy in <prefix>/libexec/hrace/bin (the symlinks installed there resolve
// to bin/). The build tree has the same layout.
std::string findPrefix(const std::string &Self) {
  const std::string Dir = dirName(Self);
  const std::string Candidates[] = {dirName(Dir),
                                    dirName(dirName(dirName(Dir)))};
  for (const std::string &Prefix : Candidates)
    if (isRegularFile(Prefix + "/lib/hrace/HybridRacePass.so"))
      return Prefix;
  fatal("cannot find lib/hrace/HybridRacePass.so in " + Candidates[0] + " or " +
        Candidates[1] + " (the driver is " + Self + ")");
}

bool contains(const Args &A, const char *Flag) {
  for (const std::string &S : A)
    if (S == Flag)
      return true;
  return false;
}

// Options whose value is the next argument; that value is not an input file.
bool takesSeparateValue(const std::string &Opt) {
  // clang-format off
  static const char *const Options[] = {
      "-o", "-x", "-I", "-L", "-D", "-U", "-l", "-u", "-T", "-z", "-e",
      "-include", "-imacros", "-include-pch", "-isystem", "-iquote",
      "-idirafter", "-isysroot", "-iprefix", "-MF", "-MT", "-MQ",
      "-Xclang", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-mllvm",
      "-target", "-arch", "-gcc-toolchain", "-serialize-diagnostics"};
  // clang-format on
  for (const char *O : Options)
    if (Opt == O)
      return true;
  return false;
}

// Whether clang would compile or link anything. `clang -v`, `--version` or
// `-print-file-name=...` have no input, and the options added for an
// instrumented build would turn them into a link or into "argument unused"
// warnings.
bool hasInput(const Args &A) {
  for (size_t I = 0; I < A.size(); ++I) {
    const std::string &S = A[I];
    if (S == "--")
      return I + 1 < A.size();
    if (S == "-" || S[0] != '-')
      return true;
    if (takesSeparateValue(S))
      ++I;
  }
  return false;
}

// Whether an input is compiled (not only linked): a source file, stdin, or
// anything after -x.
bool compilesSource(const Args &A) {
  bool AfterDashDash = false;
  for (size_t I = 0; I < A.size(); ++I) {
    const std::string &S = A[I];
    if (!AfterDashDash && S == "--") {
      AfterDashDash = true;
      continue;
    }
    if (!AfterDashDash && (S == "-x" || S.rfind("-x", 0) == 0))
      return true;
    if (S.empty())
      continue;
    if (!AfterDashDash && S != "-" && S[0] == '-') {
      if (takesSeparateValue(S))
        ++I;
      continue;
    }
    if (S == "-")
      return true;
    const std::string Name = baseName(S);
    size_t Dot = Name.rfind('.');
    const std::string Ext = Dot == std::string::npos ? "" : Name.substr(Dot);
    if (Ext != ".o" && Ext != ".a" && Ext != ".so" && Ext != ".lo" &&
        Name.find(".so.") == std::string::npos)
      return true;
  }
  return false;
}

// Whether the command stops before the link step.
bool stopsBeforeLink(const Args &A) {
  for (const char *Flag : {"-c", "-S", "-E", "-fsyntax-only", "-M", "-MM"})
    if (contains(A, Flag))
      return true;
  return false;
}

// -g, -g0, -ggdb, -gdwarf-4, -gline-tables-only, ...; not the -g-prefixed
// options unrelated to debug info.
bool hasDebugOption(const Args &A) {
  for (const std::string &S : A) {
    if (S.compare(0, 2, "-g") != 0)
      continue;
    if (S.compare(0, 5, "-gcc-") == 0 || S.compare(0, 5, "-gen-") == 0 ||
        S.compare(0, 5, "-gpu-") == 0)
      continue;
    return true;
  }
  return false;
}

// Removes both spellings of the flags; the last one given decides, like any
// -f/-fno- pair. *Ndr: instrument for ndr=1 as well.
bool extractEnableFlags(Args &A, bool *Ndr) {
  bool Enabled = false;
  *Ndr = false;
  Args Rest;
  for (std::string &S : A) {
    if (S == kEnableFlag)
      Enabled = true;
    else if (S == kDisableFlag)
      Enabled = false;
    else if (S == kNdrFlag)
      Enabled = *Ndr = true;
    else if (S == kNoNdrFlag)
      *Ndr = false;
    else
      Rest.push_back(std::move(S));
  }
  A = std::move(Rest);
  return Enabled;
}

// An LLVM option for the compiler proper only: plain -mllvm also reaches
// the assembler of .s and .S inputs, which has not loaded the plugin and
// would read an option it does not know as -h (print help, exit 0, write no
// object).
void addCompilerLlvmOption(Args &Extra, const std::string &Option) {
  Extra.insert(Extra.end(), {"-Xclang", "-mllvm", "-Xclang", Option});
}

// Takes the sanitizer ignore lists out of the user's options (clang would
// drop them: no sanitizer of its own is on) and gives them to the pass:
// -fsanitize-ignorelist=F (or the older -fsanitize-blacklist=F) becomes
// -mllvm -hrace-ignorelist=F; -fno-sanitize-ignorelist forgets the ones
// before it. The plugin is loaded early (-load) so that the option exists
// when clang parses -mllvm.
Args extractIgnoreLists(Args &A, const std::string &Plugin) {
  Args Files, Rest;
  for (std::string &S : A) {
    if (S.rfind("-fsanitize-ignorelist=", 0) == 0)
      Files.push_back(S.substr(22));
    else if (S.rfind("-fsanitize-blacklist=", 0) == 0)
      Files.push_back(S.substr(21));
    else if (S == "-fno-sanitize-ignorelist" || S == "-fno-sanitize-blacklist")
      Files.clear();
    else
      Rest.push_back(std::move(S));
  }
  A = std::move(Rest);
  if (Files.empty())
    return {};
  Args Extra = {"-Xclang", "-load", "-Xclang", Plugin};
  for (const std::string &F : Files)
    addCompilerLlvmOption(Extra, "-hrace-ignorelist=" + F);
  return Extra;
}

// __attribute__((no_sanitize("thread"))) leaves a function uninstrumented.
// clang records that attribute only as the absence of sanitize_thread, which
// it adds only when ThreadSanitizer is on: so compiling turns it on in the
// front end (-Xclang, which neither links ThreadSanitizer's runtime nor
// checks other sanitizers against it), switches off everything its pass
// would instrument (it then adds only a constructor calling __tsan_init,
// which the runtime defines), and tells the plugin, loaded early so that
// its option exists, to treat a function without the attribute as
// ThreadSanitizer does: its memory accesses are not checked, its atomics,
// calls and frame are kept. LLVM's inliner keeps the two kinds of
// functions apart (their sanitize_thread must agree).
Args noSanitizeArgs(const std::string &Plugin) {
  Args Extra = {"-Xclang", "-load", "-Xclang", Plugin};
  addCompilerLlvmOption(Extra, "-hrace-honour-no-sanitize-thread");
  Extra.insert(Extra.end(), {"-Xclang", "-fsanitize=thread"});
  for (const char *Off :
       {"-tsan-instrument-memory-accesses=0",
        "-tsan-instrument-memintrinsics=0", "-tsan-instrument-atomics=0",
        "-tsan-instrument-func-entry-exit=0"})
    addCompilerLlvmOption(Extra, Off);
  return Extra;
}

// The target triple the user asked for (--target=T, -target T), or "".
std::string targetTriple(const Args &User) {
  for (size_t I = 0; I < User.size(); ++I) {
    if (User[I].rfind("--target=", 0) == 0)
      return User[I].substr(9);
    if (User[I] == "-target" && I + 1 < User.size())
      return User[I + 1];
  }
  return "";
}

// Where the runtime for the target lives: lib/hrace for the host, and a
// subdirectory for a cross target (lib/hrace/aarch64, make check-aarch64).
std::string runtimeDir(const std::string &Lib, const Args &User) {
  const std::string Triple = targetTriple(User);
  if (Triple.rfind("aarch64", 0) == 0 || Triple.rfind("arm64", 0) == 0) {
#if !defined(__aarch64__)
    return Lib + "/aarch64";
#endif
  }
  return Lib;
}

// What an instrumented build adds to the user's options.
Args instrumentationArgs(const Args &User, const std::string &Prefix) {
  const std::string Lib = Prefix + "/lib/hrace";
  const std::string Runtime = runtimeDir(Lib, User);
  Args Extra = {"-fpass-plugin=" + Lib + "/HybridRacePass.so",
                // The runtime walks stacks by frame pointer where its shadow
                // call stack does not reach.
                "-fno-omit-frame-pointer", "-D__SANITIZE_HYBRID_RACE__=1",
                // For #include <hrace/annotations.h>.
                "-I" + Prefix + "/include",
                // The runtime intercepts pthreads; build and link for it.
                "-pthread"};
  // Reports need file:line; an explicit -g option (-g0 included) wins.
  if (!hasDebugOption(User))
    Extra.push_back("-gline-tables-only");
  // A shared object or relocatable link uses the runtime of the executable
  // it ends up in; linking a second copy would give two detectors.
  if (stopsBeforeLink(User) || contains(User, "-shared") ||
      contains(User, "-r"))
    return Extra;
  // The runtime's objects are only referenced through the instrumentation
  // and interceptors, so without --whole-archive the linker would drop them.
  Extra.push_back("-Wl,--whole-archive," + Runtime +
                  "/libhrace_rt.a,--no-whole-archive");
  // Exports the interceptors from the executable, so calls made from shared
  // libraries (libstdc++'s std::thread, say) bind to them too.
  Extra.push_back("-Wl,--dynamic-list=" + Runtime + "/hrace.syms");
  // The interceptors find the libc functions they wrap with dlsym.
  Extra.push_back("-ldl");
  return Extra;
}

} // namespace

int main(int argc, char **argv) {
  const std::string Self = selfExecutable();
  const bool Cxx = invokedAsCxx(baseName(argv[0]));
  const std::string Compiler = realCompiler(Cxx, Self);

  Args User(argv + 1, argv + argc);
  bool Ndr;
  if (extractEnableFlags(User, &Ndr) && hasInput(User)) {
    // The interceptors find the functions they wrap in the shared C
    // library; a static link has none, and libc.a's definitions would clash
    // with the runtime's (a raw multiple-definition error).
    if (!stopsBeforeLink(User) &&
        (contains(User, "-static") || contains(User, "-static-pie")))
      fatal("static linking is not supported with -fsanitize-hybrid-race "
            "(the runtime interposes the shared C library's functions); "
            "link dynamically: drop -static");
    const std::string Prefix = findPrefix(Self);
    Args IgnoreLists =
        extractIgnoreLists(User, Prefix + "/lib/hrace/HybridRacePass.so");
    Args Extra = instrumentationArgs(User, Prefix);
    Extra.insert(Extra.end(), IgnoreLists.begin(), IgnoreLists.end());
    if (compilesSource(User)) {
      Args NoSanitize = noSanitizeArgs(Prefix + "/lib/hrace/HybridRacePass.so");
      Extra.insert(Extra.end(), NoSanitize.begin(), NoSanitize.end());
      // The plugin is loaded early by now (noSanitizeArgs).
      if (Ndr)
        addCompilerLlvmOption(Extra, "-hrace-ndr");
    }
    // Arguments after "--" are all input files.
    auto Pos = User.begin();
    while (Pos != User.end() && *Pos != "--")
      ++Pos;
    User.insert(Pos, Extra.begin(), Extra.end());
  }

  // clang's own file name, not the invoked one, picks clang's mode (C or
  // C++) and keeps names like hrace-clang++ from being read as a target
  // prefix.
  std::vector<char *> Argv = {const_cast<char *>(Compiler.c_str())};
  for (std::string &S : User)
    Argv.push_back(&S[0]);
  Argv.push_back(nullptr);
  execv(Compiler.c_str(), Argv.data());
  fatal("cannot run '" + Compiler + "': " + std::strerror(errno));
}
