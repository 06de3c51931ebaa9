//===-- hrace_report_json.cpp - Reports for tools: JSON and SARIF ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// report_format=json|sarif: each printed report is also rendered into a
// process-wide buffer, and the buffer is written at exit (or at the first
// report with halt_on_error) to report_path.PID.json or .sarif: one file per
// process, so the files of a ctest run never clash and each is whole.
// tools/hrace-report merges them.
//
//===----------------------------------------------------------------------===//
#include "hrace_report_desc.h"

#include "hrace_alloc.h"
#include "hrace_rtl.h"

#include <fcntl.h>
#include <unistd.h>

namespace hrace {

namespace {

constexpr uptr kMachineBufferSize = 64 << 20;
constexpr uptr kScratchSize = 1 << 20;
constexpr u32 kMaxRules = 64;
constexpr const char *kVersion = "0.1.0";

struct MachineReports {
  char *buffer;
  uptr length;
  u32 count;
  // Reports that did not fit the buffer (the file says how many).
  u32 dropped;
  // SARIF's rules: one per report kind, in the order first seen.
  u32 rule_count;
  const char *rule_kind[kMaxRules];
  const char *rule_title[kMaxRules];
  bool rule_is_race[kMaxRules];
  char scratch[kScratchSize];
};
MachineReports machine;

// Appends JSON text to a fixed buffer; past its end, text is dropped and
// the writer says it overflowed (the report is then left out whole).
class JsonWriter {
public:
  JsonWriter(char *buf, uptr cap) : buf_(buf), cap_(cap) {}
  bool overflowed() const { return len_ >= cap_; }
  uptr length() const { return len_; }

  void Raw(const char *s) {
    for (; *s; s++)
      Put(*s);
  }
  void Int(u64 v) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    while (n)
      Put(digits[--n]);
  }
  void Hex(uptr v) {
    char text[24];
    TextBuffer t(text, sizeof(text));
    t.Append("\"0x%zx\"", v);
    Raw(text);
  }
  void String(const char *s) {
    Put('"');
    for (; *s; s++) {
      unsigned char c = static_cast<unsigned char>(*s);
      if (c == '"' || c == '\\') {
        Put('\\');
        Put(static_cast<char>(c));
      } else if (c < 0x20) {
        static const char kHex[] = "0123456789abcdef";
        Raw("\\u00");
        Put(kHex[c >> 4]);
        Put(kHex[c & 15]);
      } else {
        Put(static_cast<char>(c));
      }
    }
    Put('"');
  }
  // "key":
  void Key(const char *k) {
    String(k);
    Put(':');
  }
  // A file URI: absolute paths as file://, the rest relative to SRCROOT;
  // every byte outside RFC 3986's unreserved set and '/' percent-encoded.
  void Uri(const char *path) {
    static const char kHex[] = "0123456789ABCDEF";
    Put('"');
    if (path[0] == '/')
      Raw("file://");
    for (const char *p = path; *p; p++) {
      unsigned char c = static_cast<unsigned char>(*p);
      bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                   (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                   c == '~' || c == '/';
      if (plain) {
        Put(static_cast<char>(c));
      } else {
        Put('%');
        Put(kHex[c >> 4]);
        Put(kHex[c & 15]);
      }
    }
    Put('"');
  }

private:
  void Put(char c) {
    if (len_ < cap_)
      buf_[len_] = c;
    len_++;
  }
  char *buf_;
  uptr cap_;
  uptr len_ = 0;
};

void Locks(JsonWriter *w, LockSetId id) {
  w->Raw("[");
  if (id == kUnknownLockSet) {
    w->String("unknown");
  } else {
    u32 n;
    const LockId *locks = ctx->locksets.Members(id, &n);
    for (u32 i = 0; i < n; i++) {
      char name[16];
      TextBuffer t(name, sizeof(name));
      t.Append("M%u", locks[i]);
      if (i)
        w->Raw(",");
      w->String(name);
    }
  }
  w->Raw("]");
}

void Frame(JsonWriter *w, const SymbolizedFrame &f) {
  w->Raw("{");
  w->Key("function");
  w->String(f.function);
  w->Raw(",");
  w->Key("file");
  w->String(f.file);
  w->Raw(",");
  w->Key("line");
  w->Int(static_cast<u64>(f.line > 0 ? f.line : 0));
  w->Raw(",");
  w->Key("column");
  w->Int(static_cast<u64>(f.column > 0 ? f.column : 0));
  w->Raw(",");
  w->Key("module");
  w->String(f.module);
  w->Raw(",");
  w->Key("offset");
  w->Hex(f.module[0] ? f.module_offset : f.pc);
  w->Raw("}");
}

const char *RoleName(SectionRole role) {
  switch (role) {
  case SectionRole::kAccess:
    return "access";
  case SectionRole::kPreviousAccess:
    return "previous-access";
  case SectionRole::kThread:
    return "thread";
  case SectionRole::kMutex:
    return "mutex";
  case SectionRole::kLockOrderEdge:
    return "lock-order-edge";
  default:
    return "context";
  }
}

const char *StackNote(const ReportSection &s) {
  if (s.missing)
    return s.missing;
  return s.frames_lost ? "older frames not stored: the stack depot is full"
                       : nullptr;
}

void JsonSection(JsonWriter *w, const ReportDesc &r, const ReportSection &s) {
  w->Raw("{");
  w->Key("role");
  w->String(RoleName(s.role));
  w->Raw(",");
  w->Key("text");
  w->String(s.text);
  if (s.thread >= 0) {
    w->Raw(",");
    w->Key("thread");
    w->Int(static_cast<u64>(s.thread));
  }
  if (s.has_locks) {
    w->Raw(",");
    w->Key("locks");
    Locks(w, s.locks);
  }
  if (s.has_access) {
    w->Raw(",");
    w->Key("access");
    w->Raw("{");
    w->Key("kind");
    w->String(s.is_write ? "write" : "read");
    w->Raw(",");
    w->Key("size");
    w->Int(s.size);
    w->Raw(",");
    w->Key("address");
    w->Hex(s.addr);
    w->Raw(",");
    w->Key("atomic");
    w->Raw(s.is_atomic ? "true" : "false");
    w->Raw("}");
  }
  if (s.has_stack) {
    w->Raw(",");
    w->Key("stack");
    w->Raw("[");
    for (u32 i = 0; i < s.frame_count; i++) {
      if (i)
        w->Raw(",");
      Frame(w, r.frames[s.first_frame + i]);
    }
    w->Raw("]");
    if (const char *note = StackNote(s)) {
      w->Raw(",");
      w->Key("stack_note");
      w->String(note);
    }
  }
  w->Raw("}");
}

const ReportSection *FindRole(const ReportDesc &r, SectionRole role) {
  for (u32 i = 0; i < r.section_count; i++)
    if (r.sections[i].role == role)
      return &r.sections[i];
  return nullptr;
}

void JsonReport(JsonWriter *w, const ReportDesc &r) {
  w->Raw("{");
  w->Key("kind");
  w->String(r.kind);
  w->Raw(",");
  w->Key("title");
  w->String(r.title);
  if (r.suppression == SuppressionType::kRace) {
    w->Raw(",");
    w->Key("msm");
    w->String(MsmName(ctx->flags.msm));
  }
  if (const ReportSection *cause = FindRole(r, SectionRole::kCause)) {
    w->Raw(",");
    w->Key("cause");
    w->String(cause->text);
  }
  if (const ReportSection *loc = FindRole(r, SectionRole::kLocation)) {
    w->Raw(",");
    w->Key("location");
    w->String(loc->text);
  }
  w->Raw(",");
  w->Key("sections");
  w->Raw("[");
  bool first = true;
  for (u32 i = 0; i < r.section_count; i++) {
    const ReportSection &s = r.sections[i];
    if (s.role == SectionRole::kCause || s.role == SectionRole::kLocation)
      continue;
    if (!first)
      w->Raw(",");
    first = false;
    JsonSection(w, r, s);
  }
  w->Raw("],");
  w->Key("summary");
  w->Raw("{");
  w->Key("function");
  w->String(r.top.function);
  w->Raw(",");
  w->Key("file");
  w->String(r.top.file);
  w->Raw(",");
  w->Key("line");
  w->Int(static_cast<u64>(r.top.line > 0 ? r.top.line : 0));
  w->Raw(",");
  w->Key("column");
  w->Int(static_cast<u64>(r.top.column > 0 ? r.top.column : 0));
  w->Raw("}}");
}

// A SARIF location of one frame: the source line when known, the function
// as a logical location, and the frame's text as the message.
void SarifLocation(JsonWriter *w, const SymbolizedFrame &f) {
  w->Raw("{");
  if (f.file[0]) {
    w->Key("physicalLocation");
    w->Raw("{");
    w->Key("artifactLocation");
    w->Raw("{");
    w->Key("uri");
    w->Uri(f.file);
    if (f.file[0] != '/') {
      w->Raw(",");
      w->Key("uriBaseId");
      w->String("SRCROOT");
    }
    w->Raw("}");
    if (f.line > 0) {
      w->Raw(",");
      w->Key("region");
      w->Raw("{");
      w->Key("startLine");
      w->Int(static_cast<u64>(f.line));
      if (f.column > 0) {
        w->Raw(",");
        w->Key("startColumn");
        w->Int(static_cast<u64>(f.column));
      }
      w->Raw("}");
    }
    w->Raw("},");
  }
  if (f.function[0]) {
    w->Key("logicalLocations");
    w->Raw("[{");
    w->Key("fullyQualifiedName");
    w->String(f.function);
    w->Raw(",");
    w->Key("kind");
    w->String("function");
    w->Raw("}],");
  }
  char text[600];
  TextBuffer t(text, sizeof(text));
  if (f.function[0])
    t.Append("%s", f.function);
  else
    t.Append("0x%zx", f.pc);
  if (!f.file[0] && f.module[0])
    t.Append(" (%s+0x%zx)", f.module, f.module_offset);
  w->Key("message");
  w->Raw("{");
  w->Key("text");
  w->String(text);
  w->Raw("}}");
}

u32 RuleIndex(const ReportDesc &r) {
  for (u32 i = 0; i < machine.rule_count; i++)
    if (!internal_strcmp(machine.rule_kind[i], r.kind))
      return i;
  if (machine.rule_count == kMaxRules)
    return kMaxRules - 1;
  u32 i = machine.rule_count++;
  // Kinds and titles of reports are string constants or live in the
  // description table; titles are copied for the rare computed one.
  machine.rule_kind[i] = r.kind;
  machine.rule_title[i] = static_cast<char *>(InternalAlloc(sizeof(r.title)));
  internal_strlcpy(const_cast<char *>(machine.rule_title[i]), r.title,
                   sizeof(r.title));
  machine.rule_is_race[i] = r.suppression == SuppressionType::kRace;
  return i;
}

void SarifResult(JsonWriter *w, const ReportDesc &r) {
  bool race = r.suppression == SuppressionType::kRace;
  w->Raw("{");
  w->Key("ruleId");
  w->String(r.kind);
  w->Raw(",");
  w->Key("ruleIndex");
  w->Int(RuleIndex(r));
  w->Raw(",");
  w->Key("level");
  w->String(race || r.suppression == SuppressionType::kDeadlock ? "error"
                                                                : "warning");
  // The message: the title, then each access (or the first section).
  char text[2048];
  TextBuffer t(text, sizeof(text));
  t.Append("%s", r.title);
  for (u32 i = 0; i < r.section_count; i++) {
    const ReportSection &s = r.sections[i];
    if (s.role == SectionRole::kAccess ||
        s.role == SectionRole::kPreviousAccess || i == 0)
      t.Append("%s %s", i ? ";" : ":", s.text);
  }
  w->Raw(",");
  w->Key("message");
  w->Raw("{");
  w->Key("text");
  w->String(text);
  w->Raw("}");
  if (r.top.file[0] || r.top.function[0]) {
    w->Raw(",");
    w->Key("locations");
    w->Raw("[");
    SarifLocation(w, r.top);
    w->Raw("]");
  }
  // A code flow per report: one thread flow per stack, outermost call
  // first, as an IDE steps through it.
  bool any_stack = false;
  for (u32 i = 0; i < r.section_count; i++)
    any_stack |= r.sections[i].frame_count > 0;
  if (any_stack) {
    w->Raw(",");
    w->Key("codeFlows");
    w->Raw("[{");
    w->Key("threadFlows");
    w->Raw("[");
    bool first = true;
    for (u32 i = 0; i < r.section_count; i++) {
      const ReportSection &s = r.sections[i];
      if (!s.frame_count)
        continue;
      if (!first)
        w->Raw(",");
      first = false;
      w->Raw("{");
      w->Key("message");
      w->Raw("{");
      w->Key("text");
      w->String(s.text);
      w->Raw("},");
      w->Key("locations");
      w->Raw("[");
      for (u32 j = 0; j < s.frame_count; j++) {
        if (j)
          w->Raw(",");
        w->Raw("{");
        w->Key("location");
        SarifLocation(w, r.frames[s.first_frame + s.frame_count - 1 - j]);
        w->Raw(",");
        w->Key("nestingLevel");
        w->Int(j);
        w->Raw("}");
      }
      w->Raw("]}");
    }
    w->Raw("]}]");
  }
  w->Raw(",");
  w->Key("properties");
  w->Raw("{");
  w->Key("report");
  JsonReport(w, r);
  w->Raw("}}");
}

bool WriteAll(int fd, const char *p, uptr n) {
  while (n) {
    ssize_t done = write(fd, p, n);
    if (done <= 0)
      return false;
    p += done;
    n -= static_cast<uptr>(done);
  }
  return true;
}

} // namespace

void CollectMachineReport(const ReportDesc &r) {
  JsonWriter w(machine.scratch, kScratchSize);
  if (ctx->flags.report_format == ReportFormat::kSarif)
    SarifResult(&w, r);
  else
    JsonReport(&w, r);
  if (!machine.buffer)
    machine.buffer = static_cast<char *>(
        MmapNoReserveOrDie(kMachineBufferSize, "machine-readable reports"));
  // The separator and the report, or nothing: the file stays valid.
  if (w.overflowed() || machine.length + w.length() + 1 > kMachineBufferSize) {
    machine.dropped++;
    return;
  }
  if (machine.count)
    machine.buffer[machine.length++] = ',';
  internal_memcpy(machine.buffer + machine.length, machine.scratch, w.length());
  machine.length += w.length();
  machine.count++;
}

void WriteMachineReports() {
  if (ctx->flags.report_format == ReportFormat::kText ||
      (!machine.count && !machine.dropped))
    return;
  bool sarif = ctx->flags.report_format == ReportFormat::kSarif;
  char name[1024];
  TextBuffer file(name, sizeof(name));
  file.Append("%s.%d.%s", static_cast<const char *>(ctx->flags.report_path),
              static_cast<int>(getpid()), sarif ? "sarif" : "json");
  int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    Printf("HybridRace: cannot write report_path file '%s'\n", name);
    return;
  }
  char command[512];
  ssize_t n = readlink("/proc/self/exe", command, sizeof(command) - 1);
  command[n > 0 ? n : 0] = 0;
  // Head and tail are small; the reports go straight from the buffer.
  JsonWriter head(machine.scratch, kScratchSize);
  if (sarif) {
    head.Raw("{");
    head.Key("$schema");
    head.String("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
                "schemas/sarif-schema-2.1.0.json");
    head.Raw(",");
    head.Key("version");
    head.String("2.1.0");
    head.Raw(",");
    head.Key("runs");
    head.Raw("[{");
    head.Key("tool");
    head.Raw("{");
    head.Key("driver");
    head.Raw("{");
    head.Key("name");
    head.String("HybridRace");
    head.Raw(",");
    head.Key("version");
    head.String(kVersion);
    head.Raw(",");
    head.Key("rules");
    head.Raw("[");
    for (u32 i = 0; i < machine.rule_count; i++) {
      if (i)
        head.Raw(",");
      head.Raw("{");
      head.Key("id");
      head.String(machine.rule_kind[i]);
      head.Raw(",");
      head.Key("shortDescription");
      head.Raw("{");
      head.Key("text");
      head.String(machine.rule_title[i]);
      head.Raw("},");
      head.Key("defaultConfiguration");
      head.Raw("{");
      head.Key("level");
      head.String(machine.rule_is_race[i] ? "error" : "warning");
      head.Raw("}}");
    }
    head.Raw("]}},");
    head.Key("invocations");
    head.Raw("[{");
    head.Key("executionSuccessful");
    head.Raw("true,");
    head.Key("commandLine");
    head.String(command);
    head.Raw(",");
    head.Key("properties");
    head.Raw("{");
    head.Key("pid");
    head.Int(static_cast<u64>(getpid()));
    head.Raw(",");
    head.Key("reports_left_out");
    head.Int(machine.dropped);
    head.Raw("}}],");
    head.Key("results");
    head.Raw("[");
  } else {
    head.Raw("{");
    head.Key("tool");
    head.Raw("{");
    head.Key("name");
    head.String("HybridRace");
    head.Raw(",");
    head.Key("version");
    head.String(kVersion);
    head.Raw("},");
    head.Key("pid");
    head.Int(static_cast<u64>(getpid()));
    head.Raw(",");
    head.Key("command");
    head.String(command);
    head.Raw(",");
    head.Key("reports_left_out");
    head.Int(machine.dropped);
    head.Raw(",");
    head.Key("reports");
    head.Raw("[");
  }
  const char *tail = sarif ? "]}]}\n" : "]}\n";
  bool ok = WriteAll(fd, machine.scratch, head.length()) &&
            WriteAll(fd, machine.buffer, machine.length) &&
            WriteAll(fd, tail, internal_strlen(tail));
  close(fd);
  if (!ok)
    Printf("HybridRace: cannot write report_path file '%s'\n", name);
}

void MachineReportsForkChild() {
  machine.length = 0;
  machine.count = 0;
  machine.dropped = 0;
  machine.rule_count = 0;
}

} // namespace hrace
