// report_format=sarif writes report_path.PID.sarif, a SARIF 2.1.0 log that
// validates against the OASIS schema: one rule per report kind, and per
// report a result at the top frame with a code flow holding one thread
// flow per stack (outermost call first), so code scanning and IDEs show
// both accesses of a race. strip_path_prefix= shortens the paths of every
// report, text and machine formats alike; a stripped path becomes a URI
// relative to %SRCROOT%.
//
// RUN: %hrace_cc %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env HRACE_OPTIONS=report_format=sarif:report_path=%t.d/run:strip_path_prefix=%S/ not %t 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT:      Previous write of size 4 at {{.*}} by thread T1 (locks held: none):
// TEXT-NEXT:     #0 Publish report_format_sarif_validates_against_the_schema.c:{{[0-9]+}}:
// TEXT:      SUMMARY: HybridRace: data race report_format_sarif_validates_against_the_schema.c:[[#]] in Consume
// RUN: %python_jsonschema %inputs/validate_sarif.py %inputs/sarif-schema-2.1.0.json %t.d/run.*.sarif | FileCheck %s --check-prefix=VALID
// VALID: OK {{.*}}.sarif: 1 results
// RUN: python3 -m json.tool %t.d/run.*.sarif | FileCheck %s
//
// CHECK:      "version": "2.1.0",
// CHECK:      "name": "HybridRace",
// CHECK:      "rules": [
// CHECK-NEXT:     {
// CHECK-NEXT:         "id": "data-race",
// CHECK-NEXT:         "shortDescription": {
// CHECK-NEXT:             "text": "data race"
// CHECK:      "results": [
// CHECK-NEXT:     {
// CHECK-NEXT:         "ruleId": "data-race",
// CHECK-NEXT:         "ruleIndex": 0,
// CHECK-NEXT:         "level": "error",
// CHECK-NEXT:         "message": {
// CHECK-NEXT:             "text": "data race: Read of size 4 at {{.*}} by thread T0 (locks held: none); Previous write of size 4 at {{.*}} by thread T1 (locks held: none)"
// CHECK:              "locations": [
// CHECK-NEXT:             {
// CHECK-NEXT:                 "physicalLocation": {
// CHECK-NEXT:                     "artifactLocation": {
// CHECK-NEXT:                         "uri": "report_format_sarif_validates_against_the_schema.c",
// CHECK-NEXT:                         "uriBaseId": "SRCROOT"
// CHECK-NEXT:                     },
// CHECK-NEXT:                     "region": {
// CHECK-NEXT:                         "startLine": [[#CONSUME:]],
// The current access's thread flow: main, then Consume.
// CHECK:              "codeFlows": [
// CHECK:                  "threadFlows": [
// CHECK:                      "text": "Read of size 4 at
// CHECK:                      "fullyQualifiedName": "main",
// CHECK:                      "nestingLevel": 0
// CHECK:                      "fullyQualifiedName": "Consume",
// CHECK:                      "nestingLevel": 1
// The previous access's: the writer thread's function, then Publish.
// CHECK:                      "text": "Previous write of size 4 at
// CHECK:                      "fullyQualifiedName": "Writer",
// CHECK:                      "startLine": [[@LINE+9]],
// CHECK:                      "fullyQualifiedName": "Publish",

#include "hrace_test_sync.h"
#include <pthread.h>

int Value;
static int Published;

__attribute__((noinline)) static void Publish(int V) { Value = V; }
__attribute__((noinline)) static int Consume(void) { return Value; }

static void *Writer(void *Arg) {
  Publish(42);
  invisible_signal(&Published);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, Writer, NULL);
  invisible_wait(&Published);
  int Seen = Consume();
  pthread_join(T, NULL);
  return Seen == 42 ? 0 : 1;
}
