#!/usr/bin/env python3
#
# Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Validates SARIF logs against a JSON schema (sarif-schema-2.1.0.json beside
# this file) for the report tests. Prints "OK FILE: N results" per valid file,
# N counted over all runs; on the first invalid one prints where and why and
# exits 1. Exits 2 when the jsonschema module is missing: never a silent skip.
#
#   validate_sarif.py SCHEMA FILE...
import json
import sys

try:
    import jsonschema
except ImportError:
    print('validate_sarif.py: python module jsonschema missing (Debian: python3-jsonschema)')
    sys.exit(2)

if len(sys.argv) < 3:
    print('usage: validate_sarif.py SCHEMA FILE...')
    sys.exit(2)
with open(sys.argv[1]) as f:
    schema = json.load(f)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
validator = cls(schema)
for path in sys.argv[2:]:
    try:
        with open(path) as f:
            log = json.load(f)
    except ValueError as e:
        print('INVALID %s: not JSON: %s' % (path, e))
        sys.exit(1)
    error = jsonschema.exceptions.best_match(validator.iter_errors(log))
    if error is not None:
        where = '/'.join(str(p) for p in error.absolute_path) or '(root)'
        print('INVALID %s: at %s: %s' % (path, where, error.message))
        sys.exit(1)
    runs = log.get('runs') or []
    print('OK %s: %d results' % (path, sum(len(r.get('results') or []) for r in runs)))
