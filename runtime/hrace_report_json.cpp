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
  bool rule_is_error[kMaxRules];
  char scratch[kScratchSize];
};
MachineReports machine;

// Appends JSON to a fixed buffer and places the commas itself; past the
// buffer's end text is dropped and the writer says it overflowed (the report
// is then left out whole).
class JsonWriter {
public:
  JsonWriter(char *buf, uptr cap) : buf_(buf), cap_(cap) {}
  bool overflowed() const { return len_ >= cap_; }
  uptr length() const { return len_; }

  void Open(char c) {
    Separate();
    Put(c);
    if (depth_ + 1 < kMaxDepth)
      depth_++;
    has_member_[depth_] = false;
  }
  void Close(char c) {
    Put(c);
    if (depth_)
      depth_--;
  }
  void Key(const char *k) {
    Separate();
    Quoted(k);
    Put(':');
    after_key_ = true;
  }
  void String(const char *s) {
    Separate();
    Quoted(s);
  }
  void Int(u64 v) {
    Separate();
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
    t.Append("0x%zx", v);
    String(text);
  }
  void Bool(bool v) {
    Separate();
    Raw(v ? "true" : "false");
  }
  // A file URI: absolute paths as file://, the rest relative to SRCROOT;
  // every byte outside RFC 3986's unreserved set and '/' percent-encoded.
  void Uri(const char *path) {
    static const char kHex[] = "0123456789ABCDEF";
    Separate();
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

  void StringField(const char *k, const char *v) {
    Key(k);
    String(v);
  }
  void IntField(const char *k, u64 v) {
    Key(k);
    Int(v);
  }
  // {"text": v}, SARIF's message.
  void MessageField(const char *k, const char *v) {
    Key(k);
    Open('{');
    StringField("text", v);
    Close('}');
  }

private:
  static constexpr u32 kMaxDepth = 16;
  // A comma before every member or element but the first of its object.
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (has_member_[depth_])
      Put(',');
    has_member_[depth_] = true;
  }
  void Raw(const char *s) {
    for (; *s; s++)
      Put(*s);
  }
  void Quoted(const char *s) {
    static const char kHex[] = "0123456789abcdef";
    Put('"');
    for (; *s; s++) {
      unsigned char c = static_cast<unsigned char>(*s);
      if (c == '"' || c == '\\') {
        Put('\\');
        Put(static_cast<char>(c));
      } else if (c < 0x20) {
        Raw("\\u00");
        Put(kHex[c >> 4]);
        Put(kHex[c & 15]);
      } else {
        Put(static_cast<char>(c));
      }
    }
    Put('"');
  }
  void Put(char c) {
    if (len_ < cap_)
      buf_[len_] = c;
    len_++;
  }
  char *buf_;
  uptr cap_;
  uptr len_ = 0;
  u32 depth_ = 0;
  bool after_key_ = false;
  bool has_member_[kMaxDepth] = {};
};

void Locks(JsonWriter *w, LockSetId id) {
  w->Open('[');
  if (id == kUnknownLockSet) {
    w->String("unknown");
  } else {
    u32 n;
    const LockId *locks = ctx->locksets.Members(id, &n);
    for (u32 i = 0; i < n; i++) {
      char name[16];
      TextBuffer t(name, sizeof(name));
      t.Append("M%u", locks[i]);
      w->String(name);
    }
  }
  w->Close(']');
}

u64 NonNegative(int v) { return static_cast<u64>(v > 0 ? v : 0); }

void Frame(JsonWriter *w, const SymbolizedFrame &f) {
  w->Open('{');
  w->StringField("function", f.function);
  w->StringField("file", f.file);
  w->IntField("line", NonNegative(f.line));
  w->IntField("column", NonNegative(f.column));
  w->StringField("module", f.module);
  w->Key("offset");
  w->Hex(f.module[0] ? f.module_offset : f.pc);
  w->Close('}');
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
  w->Open('{');
  w->StringField("role", RoleName(s.role));
  w->StringField("text", s.text);
  if (s.thread >= 0)
    w->IntField("thread", static_cast<u64>(s.thread));
  if (s.has_locks) {
    w->Key("locks");
    Locks(w, s.locks);
  }
  if (s.has_access) {
    w->Key("access");
    w->Open('{');
    w->StringField("kind", s.is_write ? "write" : "read");
    w->IntField("size", s.size);
    w->Key("address");
    w->Hex(s.addr);
    w->Key("atomic");
    w->Bool(s.is_atomic);
    w->Close('}');
  }
  if (s.has_stack) {
    w->Key("stack");
    w->Open('[');
    for (u32 i = 0; i < s.frame_count; i++)
      Frame(w, r.frames[s.first_frame + i]);
    w->Close(']');
    if (const char *note = StackNote(s))
      w->StringField("stack_note", note);
  }
  w->Close('}');
}

const ReportSection *FindRole(const ReportDesc &r, SectionRole role) {
  for (u32 i = 0; i < r.section_count; i++)
    if (r.sections[i].role == role)
      return &r.sections[i];
  return nullptr;
}

void JsonReport(JsonWriter *w, const ReportDesc &r) {
  w->Open('{');
  w->StringField("kind", r.kind);
  w->StringField("title", r.title);
  if (r.suppression == SuppressionType::kRace)
    w->StringField("msm", MsmName(ctx->flags.msm));
  if (const ReportSection *cause = FindRole(r, SectionRole::kCause))
    w->StringField("cause", cause->text);
  if (const ReportSection *loc = FindRole(r, SectionRole::kLocation))
    w->StringField("location", loc->text);
  w->Key("sections");
  w->Open('[');
  for (u32 i = 0; i < r.section_count; i++) {
    const ReportSection &s = r.sections[i];
    if (s.role != SectionRole::kCause && s.role != SectionRole::kLocation)
      JsonSection(w, r, s);
  }
  w->Close(']');
  w->Key("summary");
  w->Open('{');
  w->StringField("function", r.top.function);
  w->StringField("file", r.top.file);
  w->IntField("line", NonNegative(r.top.line));
  w->IntField("column", NonNegative(r.top.column));
  w->Close('}');
  w->Close('}');
}

// A SARIF location of one frame: the source line when known, the function
// as a logical location, and the frame's text as the message.
void SarifLocation(JsonWriter *w, const SymbolizedFrame &f) {
  w->Open('{');
  if (f.file[0]) {
    w->Key("physicalLocation");
    w->Open('{');
    w->Key("artifactLocation");
    w->Open('{');
    w->Key("uri");
    w->Uri(f.file);
    if (f.file[0] != '/')
      w->StringField("uriBaseId", "SRCROOT");
    w->Close('}');
    if (f.line > 0) {
      w->Key("region");
      w->Open('{');
      w->IntField("startLine", NonNegative(f.line));
      if (f.column > 0)
        w->IntField("startColumn", NonNegative(f.column));
      w->Close('}');
    }
    w->Close('}');
  }
  if (f.function[0]) {
    w->Key("logicalLocations");
    w->Open('[');
    w->Open('{');
    w->StringField("fullyQualifiedName", f.function);
    w->StringField("kind", "function");
    w->Close('}');
    w->Close(']');
  }
  char text[600];
  TextBuffer t(text, sizeof(text));
  if (f.function[0])
    t.Append("%s", f.function);
  else
    t.Append("0x%zx", f.pc);
  if (!f.file[0] && f.module[0])
    t.Append(" (%s+0x%zx)", f.module, f.module_offset);
  w->MessageField("message", text);
  w->Close('}');
}

// Races and lock-order inversions are errors, misuse warnings.
bool IsError(const ReportDesc &r) {
  return r.suppression == SuppressionType::kRace ||
         r.suppression == SuppressionType::kDeadlock;
}

const char *Level(bool error) { return error ? "error" : "warning"; }

u32 RuleIndex(const ReportDesc &r) {
  for (u32 i = 0; i < machine.rule_count; i++)
    if (!internal_strcmp(machine.rule_kind[i], r.kind))
      return i;
  if (machine.rule_count == kMaxRules)
    return kMaxRules - 1;
  u32 i = machine.rule_count++;
  // Kinds are string constants; a title is copied for the rare computed
  // one.
  machine.rule_kind[i] = r.kind;
  machine.rule_title[i] = static_cast<char *>(InternalAlloc(sizeof(r.title)));
  internal_strlcpy(const_cast<char *>(machine.rule_title[i]), r.title,
                   sizeof(r.title));
  machine.rule_is_error[i] = IsError(r);
  return i;
}

// One thread flow per stack, outermost call first, as an IDE steps through
// it.
void SarifCodeFlow(JsonWriter *w, const ReportDesc &r) {
  w->Key("codeFlows");
  w->Open('[');
  w->Open('{');
  w->Key("threadFlows");
  w->Open('[');
  for (u32 i = 0; i < r.section_count; i++) {
    const ReportSection &s = r.sections[i];
    if (!s.frame_count)
      continue;
    w->Open('{');
    w->MessageField("message", s.text);
    w->Key("locations");
    w->Open('[');
    for (u32 j = 0; j < s.frame_count; j++) {
      w->Open('{');
      w->Key("location");
      SarifLocation(w, r.frames[s.first_frame + s.frame_count - 1 - j]);
      w->IntField("nestingLevel", j);
      w->Close('}');
    }
    w->Close(']');
    w->Close('}');
  }
  w->Close(']');
  w->Close('}');
  w->Close(']');
}

void SarifResult(JsonWriter *w, const ReportDesc &r) {
  w->Open('{');
  w->StringField("ruleId", r.kind);
  w->IntField("ruleIndex", RuleIndex(r));
  w->StringField("level", Level(IsError(r)));
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
  w->MessageField("message", text);
  if (r.top.file[0] || r.top.function[0]) {
    w->Key("locations");
    w->Open('[');
    SarifLocation(w, r.top);
    w->Close(']');
  }
  bool any_stack = false;
  for (u32 i = 0; i < r.section_count; i++)
    any_stack |= r.sections[i].frame_count > 0;
  if (any_stack)
    SarifCodeFlow(w, r);
  w->Key("properties");
  w->Open('{');
  w->Key("report");
  JsonReport(w, r);
  w->Close('}');
  w->Close('}');
}

// The file up to its list of reports: JSON's header, or SARIF's run with
// its tool, rules and invocation.
void WriteHead(JsonWriter *w, bool sarif, const char *command) {
  w->Open('{');
  if (!sarif) {
    w->Key("tool");
    w->Open('{');
    w->StringField("name", "HybridRace");
    w->StringField("version", kVersion);
    w->Close('}');
    w->IntField("pid", static_cast<u64>(getpid()));
    w->StringField("command", command);
    w->IntField("reports_left_out", machine.dropped);
    w->Key("reports");
    w->Open('[');
    return;
  }
  w->StringField("$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/"
                            "errata01/os/schemas/sarif-schema-2.1.0.json");
  w->StringField("version", "2.1.0");
  w->Key("runs");
  w->Open('[');
  w->Open('{');
  w->Key("tool");
  w->Open('{');
  w->Key("driver");
  w->Open('{');
  w->StringField("name", "HybridRace");
  w->StringField("version", kVersion);
  w->Key("rules");
  w->Open('[');
  for (u32 i = 0; i < machine.rule_count; i++) {
    w->Open('{');
    w->StringField("id", machine.rule_kind[i]);
    w->MessageField("shortDescription", machine.rule_title[i]);
    w->Key("defaultConfiguration");
    w->Open('{');
    w->StringField("level", Level(machine.rule_is_error[i]));
    w->Close('}');
    w->Close('}');
  }
  w->Close(']');
  w->Close('}');
  w->Close('}');
  w->Key("invocations");
  w->Open('[');
  w->Open('{');
  w->Key("executionSuccessful");
  w->Bool(true);
  w->StringField("commandLine", command);
  w->Key("properties");
  w->Open('{');
  w->IntField("pid", static_cast<u64>(getpid()));
  w->IntField("reports_left_out", machine.dropped);
  w->Close('}');
  w->Close('}');
  w->Close(']');
  w->Key("results");
  w->Open('[');
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
  WriteHead(&head, sarif, command);
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
