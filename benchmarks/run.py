#!/usr/bin/env python3
#
# Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The HybridRace benchmark harness (benchmarks/README.md).

Compiles the workloads of benchmarks/parsec natively, with HybridRace and with
ThreadSanitizer, runs them (and the native build under Helgrind and DRD),
clean and with their injected race, and reports per tool and HybridRace mode:
median wall time, peak RSS, slowdown against native, ratios against
ThreadSanitizer, and racy contexts (distinct source locations reported).
Also runs the hrace_microbench micro-benchmark once per HybridRace mode.

  run.py --build-dir BUILD            the full run; rewrites RESULTS.md
  run.py --build-dir BUILD --quick    a subset, ten minutes at most
  run.py --build-dir BUILD --smoke    correctness only (the ctest)

Standard library only.
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
PARSEC = os.path.join(HERE, "parsec")
REPO = os.path.dirname(HERE)

# HybridRace modes: label and HRACE_OPTIONS. "default" sets nothing.
HRACE_MODES = [
    ("default", ""),
    ("msm=short", "msm=short"),
    ("msm=long", "msm=long"),
    ("msm=hb", "msm=hb"),
    ("precise=0", "precise=0"),
    ("precise=1", "precise=1"),
]
QUICK_MODES = ["default", "msm=hb"]
SMOKE_MODE = "msm=hb"  # A lock orders accesses: clean variants are silent.
TOOLS = ["native", "tsan", "hrace", "helgrind", "drd"]
VALGRIND_TOOLS = ("helgrind", "drd")
RACE_EXIT = 66  # exitcode of HybridRace and ThreadSanitizer, error-exitcode
                # of Valgrind.

# --- Toolchain ---------------------------------------------------------------


def cmake_cache(build_dir):
    values = {}
    path = os.path.join(build_dir, "CMakeCache.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.match(r"([A-Za-z_0-9]+):[A-Z]+=(.*)", line)
                if m:
                    values[m.group(1)] = m.group(2)
    return values


@dataclass
class Toolchain:
    cc: str
    cxx: str
    hrace_cc: str
    hrace_cxx: str
    valgrind: str
    microbench: str

    @staticmethod
    def find(args):
        build = os.path.abspath(args.build_dir)
        cache = cmake_cache(build)
        cc = args.cc or cache.get("CMAKE_C_COMPILER") or "clang"
        cxx = args.cxx or cache.get("CMAKE_CXX_COMPILER") or "clang++"
        tc = Toolchain(cc, cxx,
                       os.path.join(build, "bin", "hrace-clang"),
                       os.path.join(build, "bin", "hrace-clang++"),
                       "valgrind",
                       os.path.join(build, "benchmarks", "hrace_microbench"))
        if not os.access(tc.hrace_cc, os.X_OK):
            sys.exit(f"run.py: no {tc.hrace_cc}; build HybridRace first "
                     f"(--build-dir points at its build tree)")
        return tc

    def version(self, exe, flag="--version"):
        try:
            out = subprocess.run([exe, flag], capture_output=True, text=True,
                                 timeout=30).stdout
            return out.splitlines()[0].strip() if out else "?"
        except OSError:
            return "not found"


# --- Building ----------------------------------------------------------------


def workloads():
    names = []
    for f in sorted(os.listdir(PARSEC)):
        stem, ext = os.path.splitext(f)
        if ext in (".c", ".cpp"):
            names.append((stem, os.path.join(PARSEC, f)))
    return names


def compile_command(tc, variant, source, output):
    cpp = source.endswith(".cpp")
    # DWARF 4 everywhere: Valgrind 3.19 runs the native build and cannot
    # read clang 14's default DWARF 5. The code is the same either way.
    common = ["-O2", "-g", "-gdwarf-4", "-pthread", source, "-o", output]
    libs = [] if cpp else ["-lm"]
    if variant == "native":
        return [tc.cxx if cpp else tc.cc] + common + libs
    if variant == "tsan":
        return [tc.cxx if cpp else tc.cc, "-fsanitize=thread"] + common + libs
    return ([tc.hrace_cxx if cpp else tc.hrace_cc, "-fsanitize-hybrid-race"] +
            common + libs)


def build_all(tc, names, variants, out_dir, jobs):
    """Returns {(variant, name): path}; a failed compile aborts the run."""
    tasks = []
    for variant in variants:
        os.makedirs(os.path.join(out_dir, "bin", variant), exist_ok=True)
        for name, source in names:
            out = os.path.join(out_dir, "bin", variant, name)
            tasks.append((variant, name, compile_command(tc, variant, source,
                                                         out), out))

    def one(task):
        variant, name, cmd, out = task
        r = subprocess.run(cmd, capture_output=True, text=True)
        return task, r

    binaries, failed = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for (variant, name, cmd, out), r in pool.map(one, tasks):
            if r.returncode:
                failed.append(f"{' '.join(cmd)}\n{r.stderr}")
            binaries[(variant, name)] = out
    if failed:
        sys.exit("run.py: compilation failed:\n" + "\n".join(failed))
    return binaries


# --- Running -----------------------------------------------------------------


@dataclass
class Run:
    wall: float
    maxrss_kb: int
    rc: int          # Exit code, or -signal.
    timed_out: bool
    stdout: str
    stderr: str


# GNU time reports the peak RSS of the program alone. Without it, runs have
# no RSS (a child forked from here would start at this process's size).
TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def kill_children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(c) for c in f.read().split()]
    except OSError:
        return
    for child in children:
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass


def run_once(cmd, env, timeout, log_prefix):
    """Runs cmd (under GNU time) in its own process group: wall time, and the
    peak RSS of the process and of the children it waited for (the
    symbolizer). GNU time, not this process, forks the program: a child's
    peak RSS starts at its parent's size."""
    out_path, err_path = log_prefix + ".out", log_prefix + ".err"
    time_path = log_prefix + ".time"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.monotonic()
        timed = [TIME, "-f", "%M", "-o", time_path] + cmd if TIME else cmd
        proc = subprocess.Popen(timed, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            proc.wait(timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            # Kill the program so that GNU time still reports on it, then
            # anything left in the group.
            kill_children(proc.pid)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            timed_out = True
        wall = time.monotonic() - start
    with open(out_path, errors="replace") as f:
        stdout = f.read()
    with open(err_path, errors="replace") as f:
        stderr = f.read()
    rc, maxrss = proc.returncode, 0
    if TIME and os.path.exists(time_path):
        with open(time_path) as f:
            report = f.read()
        m = re.search(r"terminated by signal (\d+)", report)
        if m:
            rc = -int(m.group(1))
        m = re.search(r"^(\d+)$", report, re.M)
        maxrss = int(m.group(1)) if m else 0
    return Run(wall, maxrss, rc, timed_out, stdout, stderr)


# Racy contexts: distinct FILE:LINE of the reports, as Helgrind+ counted them.
HRACE_SUMMARY = re.compile(r"^SUMMARY: HybridRace: data race (\S+)", re.M)
TSAN_SUMMARY = re.compile(r"^SUMMARY: ThreadSanitizer: data race (\S+)", re.M)
# Valgrind: the first frame after the error's headline.
VG_HEADLINE = {"helgrind": re.compile(r"Possible data race during"),
               "drd": re.compile(r"Conflicting (load|store) by thread")}
VG_FRAME = re.compile(r"^==\d+==\s+(?:at|by) 0x[0-9A-Fa-f]+: (.*)$")


def strip_column(loc):
    """FILE:LINE:COL -> FILE:LINE, so that tools compare."""
    m = re.match(r"(.*:\d+):\d+$", loc)
    return m.group(1) if m else loc


def contexts(tool, stderr):
    if tool == "hrace":
        return {strip_column(m) for m in HRACE_SUMMARY.findall(stderr)}
    if tool == "tsan":
        return {strip_column(m) for m in TSAN_SUMMARY.findall(stderr)}
    if tool in VG_HEADLINE:
        found, lines = set(), stderr.splitlines()
        for i, line in enumerate(lines):
            if not VG_HEADLINE[tool].search(line):
                continue
            for frame_line in lines[i + 1:i + 6]:
                m = VG_FRAME.match(frame_line)
                if m:
                    # "func (file.c:12)" or "func (in /lib/x.so)".
                    fm = re.search(r"\(([^()]*:\d+)\)\s*$", m.group(1))
                    found.add(fm.group(1) if fm else m.group(1))
                    break
        return found
    return set()


CHECKSUM = re.compile(r"checksum ([0-9a-f]{16}) roi ([0-9.]+) s")


def unsupported_mode(run):
    """An option or value this runtime does not know: exit 2 and one line."""
    return run.rc == 2 and run.stderr.startswith("HybridRace:")


# --- One configuration: a tool (and mode) on a workload, clean or racy ------


@dataclass
class Result:
    workload: str
    size: str
    tool: str
    mode: str        # HybridRace mode label, "" otherwise.
    race: bool
    status: str = "ok"  # ok, timeout, crash, n/a, checksum, skipped
    runs: list = field(default_factory=list)
    contexts: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    @property
    def label(self):
        return f"{self.tool} {self.mode}".strip()

    def median(self, key):
        values = [r[key] for r in self.runs]
        return statistics.median(values) if values else None

    def to_json(self):
        return {"workload": self.workload, "size": self.size,
                "tool": self.tool, "mode": self.mode, "race": self.race,
                "status": self.status, "runs": self.runs,
                "median_wall_s": self.median("wall_s"),
                "median_maxrss_kb": self.median("maxrss_kb"),
                "contexts": self.contexts, "notes": self.notes}


class Harness:
    def __init__(self, args, tc, binaries):
        self.args = args
        self.tc = tc
        self.binaries = binaries
        self.results = []
        self.unsupported = set()  # HybridRace modes this runtime rejects.
        self.native_checksum = {}
        self.log_dir = os.path.join(args.out_dir, "logs")
        os.makedirs(self.log_dir, exist_ok=True)

    def command(self, tool, name, size, race):
        variant = {"tsan": "tsan", "hrace": "hrace"}.get(tool, "native")
        cmd = [self.binaries[(variant, name)], "-i", size, "-t",
               str(self.args.threads)] + (["-r"] if race else [])
        if tool in VALGRIND_TOOLS:
            cmd = [self.tc.valgrind, f"--tool={tool}",
                   f"--error-exitcode={RACE_EXIT}"] + cmd
        return cmd

    def environment(self, tool, options):
        env = dict(os.environ)
        env.pop("HRACE_OPTIONS", None)
        if tool == "hrace" and options:
            env["HRACE_OPTIONS"] = options
        if tool == "tsan":
            env["TSAN_OPTIONS"] = f"exitcode={RACE_EXIT}"
        return env

    def timeout(self, tool, size):
        if tool in VALGRIND_TOOLS:
            return self.args.valgrind_timeout
        return self.args.timeout * (4 if size == "medium" else 1)

    def measure(self, name, size, tool, mode, options, race, repeats,
                deadline=None):
        """Runs a configuration up to `repeats` times, fewer once the runs
        took --repeat-time seconds (long runs vary less), and never past
        `deadline`."""
        res = Result(name, size, tool, mode, race)
        if tool == "hrace" and mode in self.unsupported:
            res.status = "n/a"
            self.results.append(res)
            return res
        found, spent = set(), 0.0
        for i in range(repeats):
            timeout = self.timeout(tool, size)
            if deadline is not None:
                left = deadline - time.monotonic()
                if left < 5 or (i > 0 and left < timeout):
                    if i == 0:
                        res.status = "skipped"
                    break
                timeout = min(timeout, left)
            if i > 0 and spent >= self.args.repeat_time:
                break
            tag = "-".join(filter(None, [name, size, tool, mode.replace("=", ""),
                                         "race" if race else "clean", str(i)]))
            run = run_once(self.command(tool, name, size, race),
                           self.environment(tool, options), timeout,
                           os.path.join(self.log_dir, tag))
            spent += run.wall
            if tool == "hrace" and unsupported_mode(run):
                self.unsupported.add(mode)
                res.status = "n/a"
                res.notes.append(run.stderr.strip().splitlines()[0])
                break
            m = CHECKSUM.search(run.stdout)
            res.runs.append({"wall_s": round(run.wall, 4),
                             "maxrss_kb": run.maxrss_kb, "rc": run.rc,
                             "roi_s": float(m.group(2)) if m else None,
                             "checksum": m.group(1) if m else None})
            found |= contexts(tool, run.stderr)
            if run.timed_out:
                res.status = "timeout"
                break
            if run.rc not in (0, RACE_EXIT) or not m:
                res.status = "crash"
                res.notes.append(f"exit {run.rc}: " + tail(run.stderr))
                break
            if tool == "native" and not race:
                self.native_checksum[(name, size)] = m.group(1)
            elif (not race and m.group(1) !=
                  self.native_checksum.get((name, size), m.group(1))):
                res.status = "checksum"
                res.notes.append(f"checksum {m.group(1)} differs from native")
        res.contexts = sorted(found)
        self.results.append(res)
        progress(res)
        return res


def tail(text, lines=3):
    return " | ".join(text.strip().splitlines()[-lines:])[:300]


def progress(res):
    wall, rss = res.median("wall_s"), res.median("maxrss_kb")
    what = (f"{wall:.2f} s {rss / 1024:.0f} MB" if wall is not None else "")
    print(f"  {res.size:6} {res.workload:13} {res.label:16} "
          f"{'racy ' if res.race else 'clean'} {res.status:8} {what:18} "
          f"{len(res.contexts)} contexts", file=sys.stderr, flush=True)


# --- Plans: what runs how often ----------------------------------------------


def parse_options(text):
    return dict(kv.split("=", 1) for kv in re.split(r"[:,\s]", text)
                if "=" in kv)


def hrace_defaults(binary):
    """The runtime's option defaults, from HRACE_OPTIONS=help=1."""
    env = dict(os.environ, HRACE_OPTIONS="help=1")
    r = subprocess.run([binary, "-i", "tiny"], env=env, capture_output=True,
                       text=True, timeout=120)
    return dict(re.findall(r"^  (\w+)\s+default (\S*)$",
                           r.stdout + r.stderr, re.M))


def select_modes(args, defaults):
    """The selected HybridRace modes, each run once: a mode that sets the
    same options as an earlier one (msm=short when it is the default, say)
    becomes an alias of it. Fills args.hrace_modes and args.aliases."""
    args.hrace_modes, args.aliases, seen = [], {}, {}
    for label, options in HRACE_MODES:
        if label not in args.modes:
            continue
        effective = dict(defaults, **parse_options(options))
        key = tuple(sorted(effective.items())) if defaults else label
        if key in seen:
            args.aliases[seen[key]].append(label)
            continue
        seen[key] = label
        args.aliases[label] = []
        args.hrace_modes.append((label, options))


def mode_label(args, tool, mode):
    aliases = args.aliases.get(mode) if tool == "hrace" else None
    label = f"{tool} {mode}".strip()
    return f"{label} (= {', '.join(aliases)})" if aliases else label


def configurations(args):
    """(tool, mode label, HRACE_OPTIONS) in the order they run."""
    configs = []
    for tool in args.tools:
        if tool == "hrace":
            configs += [("hrace", label, opts)
                        for label, opts in args.hrace_modes]
        else:
            configs.append((tool, "", ""))
    return configs


def plan(args, names):
    """Every run, most important first, as (size, workload, tool, mode,
    HRACE_OPTIONS, race, repeats). Timings come from the clean variants on
    small and medium; racy contexts, with and without the injected race,
    from the tiny input, where every tool can afford both."""
    configs = configurations(args)
    headline = [c for c in configs if c[0] in ("native", "tsan") or
                (c[0] == "hrace" and c[1] == "default")]
    modes = [c for c in configs if c[0] == "hrace" and c not in headline]
    valgrind = [c for c in configs if c[0] in VALGRIND_TOOLS]
    tasks = []

    def add(size, group, repeats, detection):
        for name in names:
            for tool, mode, options in group:
                if size in args.sizes:
                    tasks.append((size, name, tool, mode, options, False,
                                  repeats))
                if detection:
                    tasks.append(("tiny", name, tool, mode, options, False, 1))
                    if tool != "native":
                        tasks.append(("tiny", name, tool, mode, options, True,
                                      1))

    add("small", headline, args.runs, True)
    add("small", valgrind, 1, True)
    add("small", modes, 1, True)
    add("medium", headline, 1, False)
    return tasks


def run_smoke(h, args, names):
    """Checksums equal to native, clean variants silent and injected races
    reported, with HybridRace in msm=hb; and the micro-benchmark runs."""
    failures = []
    options = dict(HRACE_MODES)[SMOKE_MODE]
    for name in names:
        native = h.measure(name, "tiny", "native", "", "", False, 1)
        clean = h.measure(name, "tiny", "hrace", SMOKE_MODE, options, False, 1)
        racy = h.measure(name, "tiny", "hrace", SMOKE_MODE, options, True, 1)
        for res in (native, clean, racy):
            if res.status not in ("ok",):
                failures.append(f"{name} {res.label} "
                                f"{'racy' if res.race else 'clean'}: "
                                f"{res.status} {' '.join(res.notes)}")
        if clean.contexts:
            failures.append(f"{name}: clean variant reported "
                            f"{', '.join(clean.contexts)}")
        if not racy.contexts:
            failures.append(f"{name}: injected race not reported")
    micro = run_once([h.tc.microbench, "--benchmark_min_time=0.001"],
                     dict(os.environ), args.timeout,
                     os.path.join(h.log_dir, "microbench-smoke"))
    if micro.rc:
        failures.append(f"hrace_microbench: exit {micro.rc}: "
                        f"{tail(micro.stderr)}")
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    print(f"benchmarks smoke: {len(names)} workloads, "
          f"{'FAILED' if failures else 'passed'}", file=sys.stderr)
    return not failures


def run_microbench(tc, args, log_dir):
    """{mode: {benchmark: ns per access or per operation}}."""
    table = {}
    for label, options in args.hrace_modes:
        env = dict(os.environ)
        env.pop("HRACE_OPTIONS", None)
        if options:
            env["HRACE_OPTIONS"] = options
        run = run_once([tc.microbench, "--benchmark_format=json",
                        f"--benchmark_min_time={args.micro_time}"],
                       env, args.timeout,
                       os.path.join(log_dir, "microbench-" +
                                    label.replace("=", "")))
        if unsupported_mode(run):
            table[label] = None
            continue
        if run.rc:
            table[label] = {"error": f"exit {run.rc}: {tail(run.stderr)}"}
            continue
        values = {}
        for b in json.loads(run.stdout)["benchmarks"]:
            if "time_per_access" in b:
                values[b["name"]] = b["time_per_access"] * 1e9
            else:
                scale = {"ns": 1, "us": 1e3, "ms": 1e6}[b["time_unit"]]
                values[b["name"]] = b["real_time"] * scale
        table[label] = values
        print(f"  micro  {label:16} done", file=sys.stderr, flush=True)
    return table


# --- Reporting ---------------------------------------------------------------


def machine_info(tc):
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem_kb = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal"):
                mem_kb = int(line.split()[1])
    try:
        commit = subprocess.run(["git", "-C", REPO, "describe", "--always",
                                 "--dirty"], capture_output=True, text=True,
                                timeout=30).stdout.strip()
    except OSError:
        commit = "?"
    return {
        "date": datetime.datetime.now().astimezone().isoformat(
            timespec="seconds"),
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(mem_kb / 2**20, 1),
        "kernel": platform.release(),
        "clang": tc.version(tc.cc),
        "valgrind": tc.version(tc.valgrind),
        "python": platform.python_version(),
        "commit": commit,
        "load_average_start": os.getloadavg(),
    }


def fmt(value, digits=2, suffix=""):
    return "–" if value is None else f"{value:.{digits}f}{suffix}"


def ratio(a, b):
    return a / b if a is not None and b else None


def cell_status(res):
    if res is None:
        return "–"
    if res.status in ("n/a", "timeout", "crash", "checksum", "skipped"):
        return res.status
    return None


def detection(by_key, r):
    """Contexts on tiny without and with the injected race, and whether the
    racy run reported a location the clean one did not."""
    clean = by_key.get((r.workload, "tiny", r.tool, r.mode, False))
    racy = by_key.get((r.workload, "tiny", r.tool, r.mode, True))
    if clean is None or racy is None:
        return ["–", "–", "–"]
    bad = [x.status for x in (clean, racy)
           if x.status in ("n/a", "crash", "timeout", "skipped")]
    if bad:
        return [bad[0]] * 3
    found = set(racy.contexts) - set(clean.contexts)
    return [str(len(clean.contexts)), str(len(racy.contexts)),
            "yes" if found else "**no**"]


def markdown(meta, results, micro, args):
    by_key = {(r.workload, r.size, r.tool, r.mode, r.race): r for r in results}
    out = []
    for size in [s for s in ("small", "medium") if s in args.sizes]:
        rows = [r for r in results if r.size == size and not r.race]
        if not rows:
            continue
        out.append(f"\n### Input `{size}`, {args.threads} threads\n")
        out.append("| workload | tool | time s | RSS MB | slowdown | "
                   "time/TSan | RSS/TSan | contexts | tiny: contexts | "
                   "tiny -r: contexts | injected race found | notes |")
        out.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|:-:|---|")
        for r in rows:
            native = by_key.get((r.workload, size, "native", "", False))
            tsan = by_key.get((r.workload, size, "tsan", "", False))
            status = cell_status(r)
            wall, rss = r.median("wall_s"), r.median("maxrss_kb")
            tsan_wall = tsan.median("wall_s") if tsan else None
            tsan_rss = tsan.median("maxrss_kb") if tsan else None
            native_wall = native.median("wall_s") if native else None
            if status in ("n/a", "crash", "skipped"):
                cols = [status] * 5
            else:
                # A timed-out run is a lower bound.
                bound = "≥ " if status == "timeout" else ""
                cols = [bound + fmt(wall),
                        fmt(rss / 1024 if rss else None, 0),
                        bound + fmt(ratio(wall, native_wall), 1, "×"),
                        bound + fmt(ratio(wall, tsan_wall), 2),
                        fmt(ratio(rss, tsan_rss), 2)]
            if r.tool == "native":
                cols[2:5] = ["1.0×", "–", "–"]
            contexts_col = "–" if status in ("n/a", "skipped") else \
                str(len(r.contexts))
            detect = detection(by_key, r) if size == "small" and \
                r.tool != "native" else ["–", "–", "–"]
            notes = list(r.notes)
            if status == "timeout":
                notes.insert(0, "timeout")
            elif status == "checksum":
                notes.insert(0, "wrong checksum")
            out.append(f"| {r.workload} | {mode_label(args, r.tool, r.mode)} | "
                       + " | ".join(cols) +
                       f" | {contexts_col} | " + " | ".join(detect) +
                       f" | {'; '.join(notes)} |")
    out.append(summary_table(results, args))
    if micro:
        out.append(micro_table(micro, args))
    return "\n".join(out) + "\n"


def geomean(values):
    values = [v for v in values if v]
    if not values:
        return None
    product = 1.0
    for v in values:
        product *= v
    return product ** (1.0 / len(values))


def summary_table(results, args):
    by_key = {(r.workload, r.size, r.tool, r.mode, r.race): r for r in results}
    out = []
    for size in [s for s in ("small", "medium") if s in args.sizes]:
        rows = [r for r in results if r.size == size and not r.race]
        labels = []
        for r in rows:
            if r.tool != "native" and (r.tool, r.mode) not in labels:
                labels.append((r.tool, r.mode))
        if not labels:
            continue
        out.append(f"\n### Summary, input `{size}`\n")
        out.append("Geometric means over the workloads measured by both "
                   "tools; a timed-out run counts in `timeouts` only.\n")
        out.append("| tool | slowdown | time/TSan | RSS/TSan | time ≤ TSan | "
                   "RSS ≤ TSan | timeouts | contexts | injected races found "
                   "(tiny) |")
        out.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
        names = sorted({r.workload for r in rows})
        for tool, mode in labels:
            slow, times, sizes, faster, smaller, timeouts, ctx = \
                [], [], [], 0, 0, 0, 0
            found, tried = 0, 0
            for w in names:
                r = by_key.get((w, size, tool, mode, False))
                nat = by_key.get((w, size, "native", "", False))
                ts = by_key.get((w, size, "tsan", "", False))
                if r is not None and r.status == "timeout":
                    timeouts += 1
                if r is not None and r.status in ("ok", "checksum"):
                    ctx += len(r.contexts)
                    wall, rss = r.median("wall_s"), r.median("maxrss_kb")
                    if nat and nat.status == "ok":
                        slow.append(wall / nat.median("wall_s"))
                    if ts and ts.status == "ok":
                        times.append(wall / ts.median("wall_s"))
                        sizes.append(rss / ts.median("maxrss_kb"))
                        faster += times[-1] <= 1.0
                        smaller += sizes[-1] <= 1.0
                detect = detection(by_key, Result(w, size, tool, mode, False))
                if detect[2] in ("yes", "**no**"):
                    tried += 1
                    found += detect[2] == "yes"
            if tool == "tsan":
                cmp_cols = ["1.00", "1.00", "–", "–"]
            else:
                cmp_cols = [fmt(geomean(times)), fmt(geomean(sizes)),
                            f"{faster}/{len(times)}",
                            f"{smaller}/{len(sizes)}"]
            out.append(f"| {mode_label(args, tool, mode)} | " +
                       fmt(geomean(slow), 1, "×") + " | " +
                       " | ".join(cmp_cols) +
                       f" | {timeouts} | {ctx} | {found}/{tried} |")
    return "\n".join(out)


def micro_table(micro, args):
    modes = [m for m, v in micro.items() if v is not None and "error" not in v]
    names = []
    for m in modes:
        for n in micro[m]:
            if n not in names:
                names.append(n)
    out = ["\n### Micro-benchmark (hrace_microbench): ns per access, or per "
           "operation\n",
           "| benchmark | " + " | ".join(
               mode_label(args, "hrace", m)[len("hrace "):] for m in modes) +
           " |",
           "|---|" + "--:|" * len(modes)]
    for n in names:
        out.append(f"| {n} | " + " | ".join(fmt(micro[m].get(n), 1)
                                             for m in modes) + " |")
    skipped = [m for m, v in micro.items() if v is None]
    failed = [f"{m}: {v['error']}" for m, v in micro.items()
              if v is not None and "error" in v]
    if skipped:
        out.append(f"\nModes this runtime does not have: {', '.join(skipped)}.")
    if failed:
        out.append("\nFailed: " + "; ".join(failed))
    return "\n".join(out)


def results_header(meta, args, elapsed):
    cmd = " ".join(["benchmarks/run.py"] + sys.argv[1:])
    return (
        "# HybridRace benchmark results\n\n"
        f"Generated by `{cmd}` on {meta['date']} in {elapsed / 60:.1f} "
        "minutes. See benchmarks/README.md for what is measured and how.\n\n"
        f"- Machine: {meta['nproc']} CPUs ({meta['cpu']}), "
        f"{meta['memory_gib']} GiB, Linux {meta['kernel']}; load average "
        f"{meta['load_average_start'][0]:.2f} at the start, "
        f"{meta['load_average_end'][0]:.2f} at the end\n"
        f"- Toolchain: {meta['clang']}; {meta['valgrind']}; "
        f"Python {meta['python']}\n"
        f"- HybridRace: {meta['commit']}\n"
        f"- Runs: {args.threads} threads; wall time and peak RSS are "
        f"medians of up to {args.runs} runs for native, ThreadSanitizer and "
        "the default HybridRace mode on `small`, of one run otherwise; "
        "`tiny` columns: one run clean and one with the injected race "
        "(`-r`)\n")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--build-dir", default=os.path.join(REPO, "build"),
                   help="HybridRace build tree (default: %(default)s)")
    p.add_argument("--out-dir", help="binaries, logs, results.json and "
                   "results.md (default: BUILD/benchmarks/run)")
    p.add_argument("--quick", action="store_true",
                   help="small input, one run, modes " +
                   ", ".join(QUICK_MODES) + ", no Valgrind")
    p.add_argument("--smoke", action="store_true",
                   help="tiny input, correctness only; exit 1 on failure")
    p.add_argument("--sizes", help="timed inputs: small, medium or both "
                   "(default: small)")
    p.add_argument("--tools", help="comma-separated subset of " +
                   ",".join(TOOLS))
    p.add_argument("--modes", help="comma-separated HybridRace modes (default:"
                   " all of " + ", ".join(m for m, _ in HRACE_MODES) + ")")
    p.add_argument("--workloads", help="comma-separated subset")
    p.add_argument("--runs", type=int, help="repetitions of the timed "
                   "configurations (default 3; --quick 1)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--budget", type=float, help="minutes; what does not fit "
                   "is reported as skipped, least important first (default "
                   "50; --quick 10)")
    p.add_argument("--repeat-time", type=float, default=20.0,
                   help="no further repetitions once a configuration's runs "
                   "took this many seconds (default %(default)s)")
    p.add_argument("--timeout", type=float, default=90.0,
                   help="seconds per run on small, ×4 on medium "
                   "(default %(default)s)")
    p.add_argument("--valgrind-timeout", type=float, default=60.0,
                   help="seconds per Helgrind or DRD run "
                   "(default %(default)s)")
    p.add_argument("--micro-time", type=float, default=0.2,
                   help="--benchmark_min_time of the micro-benchmark")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                   help="parallel compilations")
    p.add_argument("--cc", help="C compiler for native and TSan builds "
                   "(default: the build tree's)")
    p.add_argument("--cxx", help="C++ compiler, likewise")
    p.add_argument("--results-md", help="where the full run writes its "
                   "tables (default: benchmarks/RESULTS.md; quick and smoke "
                   "runs write only to --out-dir)")
    args = p.parse_args()

    args.out_dir = os.path.abspath(args.out_dir or os.path.join(
        args.build_dir, "benchmarks", "run"))
    args.sizes = (args.sizes or "small").split(",")
    args.tools = (args.tools or ",".join(
        t for t in TOOLS if not (args.quick and t in VALGRIND_TOOLS))).split(",")
    args.modes = (args.modes or ",".join(
        QUICK_MODES if args.quick else [m for m, _ in HRACE_MODES])).split(",")
    args.runs = args.runs or (1 if args.quick else 3)
    args.budget = args.budget or (10 if args.quick else 50)
    all_names = workloads()
    if args.workloads:
        wanted = args.workloads.split(",")
        all_names = [n for n in all_names if n[0] in wanted]
    names = [n for n, _ in all_names]

    tc = Toolchain.find(args)
    started = time.monotonic()
    meta = machine_info(tc)
    if args.smoke:
        variants = ["native", "hrace"]
    else:
        variants = ["native"] + [v for v in ("tsan", "hrace") if v in
                                 args.tools]
    print(f"run.py: compiling {len(names)} workloads ({', '.join(variants)})",
          file=sys.stderr, flush=True)
    binaries = build_all(tc, all_names, variants, args.out_dir, args.jobs)
    select_modes(args, hrace_defaults(binaries[("hrace", names[0])]))
    h = Harness(args, tc, binaries)

    if args.smoke:
        return 0 if run_smoke(h, args, names) else 1

    deadline = started + args.budget * 60
    for size, name, tool, mode, options, race, repeats in plan(args, names):
        h.measure(name, size, tool, mode, options, race, repeats, deadline)
    micro = run_microbench(tc, args, h.log_dir) if "hrace" in args.tools \
        else {}
    meta["load_average_end"] = os.getloadavg()
    elapsed = time.monotonic() - started
    meta["elapsed_s"] = round(elapsed, 1)
    meta["command"] = sys.argv
    with open(os.path.join(args.out_dir, "results.json"), "w") as f:
        json.dump({"meta": meta, "results": [r.to_json() for r in h.results],
                   "micro": micro}, f, indent=1)
    table = markdown(meta, h.results, micro, args)
    document = results_header(meta, args, elapsed) + table
    with open(os.path.join(args.out_dir, "results.md"), "w") as f:
        f.write(document)
    print(table)
    target = args.results_md or (None if args.quick else
                                 os.path.join(HERE, "RESULTS.md"))
    if target:
        with open(target, "w") as f:
            f.write(document)
        print(f"run.py: wrote {target}", file=sys.stderr)
    print(f"run.py: {args.out_dir}/results.json, results.md "
          f"({elapsed / 60:.1f} minutes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
