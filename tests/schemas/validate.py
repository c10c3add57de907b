#!/usr/bin/env python3
"""A small JSON Schema validator (no network, no third-party module) for the subset that
docs/schemas/*.schema.json use: type (one or a list), properties, required,
additionalProperties (boolean or schema), items, enum, const, minimum, maximum, pattern,
minItems, anyOf, oneOf, $ref to "#/$defs/NAME" or to another schema file beside this one
("status.schema.json"; its $refs then resolve in the schema that holds them — keep them local). Usage: validate.py SCHEMA FILE...
Prints one line per error (the file, the JSON path, what is wrong); exit 1 on any."""
import json
import os
import re
import sys

TYPES = {
    'null': lambda v: v is None,
    'boolean': lambda v: isinstance(v, bool),
    'integer': lambda v: isinstance(v, int) and not isinstance(v, bool),
    'number': lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    'string': lambda v: isinstance(v, str),
    'array': lambda v: isinstance(v, list),
    'object': lambda v: isinstance(v, dict),
}
KNOWN = {'$schema', '$id', 'title', 'description', '$defs', 'type', 'properties', 'required',
         'additionalProperties', 'items', 'enum', 'const', 'minimum', 'maximum', 'pattern',
         'minItems', 'anyOf', 'oneOf', '$ref', 'examples', '$comment'}


class Validator:
    def __init__(self, root, directory='.'):
        self.root = root
        self.dir = directory
        self.errors = []

    def resolve(self, ref):
        if not ref.startswith('#'):
            # Another schema file beside this one ("status.schema.json"): its root.
            path = os.path.join(self.dir, os.path.basename(ref))
            with open(path, encoding='utf-8') as fh:
                other = json.load(fh)
            return Validator(other, self.dir).root
        node = self.root
        for part in ref[2:].split('/'):
            node = node[part]
        return node

    def check(self, s, v, path, errs):
        unknown = set(s) - KNOWN
        if unknown:
            raise SystemExit(f'validate: schema keyword(s) not supported: {sorted(unknown)} at {path}')
        if '$ref' in s:
            self.check(self.resolve(s['$ref']), v, path, errs)
        if 'type' in s:
            ts = s['type'] if isinstance(s['type'], list) else [s['type']]
            if not any(TYPES[t](v) for t in ts):
                errs.append(f'{path}: {json.dumps(v)[:60]} is not {"/".join(ts)}')
                return
        if 'const' in s and v != s['const']:
            errs.append(f'{path}: {json.dumps(v)[:60]} is not {json.dumps(s["const"])}')
        if 'enum' in s and v not in s['enum']:
            errs.append(f'{path}: {json.dumps(v)[:60]} is not one of {s["enum"]}')
        if TYPES['number'](v):
            if 'minimum' in s and v < s['minimum']:
                errs.append(f'{path}: {v} < minimum {s["minimum"]}')
            if 'maximum' in s and v > s['maximum']:
                errs.append(f'{path}: {v} > maximum {s["maximum"]}')
        if isinstance(v, str) and 'pattern' in s and not re.search(s['pattern'], v):
            errs.append(f'{path}: {json.dumps(v)[:60]} does not match {s["pattern"]}')
        if isinstance(v, dict):
            props = s.get('properties', {})
            for k in s.get('required', []):
                if k not in v:
                    errs.append(f'{path}: missing required key "{k}"')
            for k, x in v.items():
                if k in props:
                    self.check(props[k], x, f'{path}.{k}', errs)
                else:
                    ap = s.get('additionalProperties', True)
                    if ap is False:
                        errs.append(f'{path}: key "{k}" is not in the schema')
                    elif isinstance(ap, dict):
                        self.check(ap, x, f'{path}.{k}', errs)
        if isinstance(v, list):
            if 'minItems' in s and len(v) < s['minItems']:
                errs.append(f'{path}: fewer than {s["minItems"]} items')
            if 'items' in s:
                for i, x in enumerate(v):
                    self.check(s['items'], x, f'{path}[{i}]', errs)
        for key in ('anyOf', 'oneOf'):
            if key in s:
                ok = 0
                for sub in s[key]:
                    e = []
                    self.check(sub, v, path, e)
                    ok += not e
                if (key == 'anyOf' and ok == 0) or (key == 'oneOf' and ok != 1):
                    errs.append(f'{path}: matches {ok} of the {key} alternatives')


def main():
    schema_file, files = sys.argv[1], sys.argv[2:]
    with open(schema_file, encoding='utf-8') as fh:
        schema = json.load(fh)
    bad = 0
    for f in files:
        try:
            with open(f, encoding='utf-8') as fh:
                doc = json.load(fh)
        except (OSError, ValueError) as e:
            print(f'{f}: not JSON: {e}')
            bad += 1
            continue
        errs = []
        Validator(schema, os.path.dirname(os.path.abspath(schema_file))).check(schema, doc, '$', errs)
        for e in errs:
            print(f'{f}: {e}')
        bad += bool(errs)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
