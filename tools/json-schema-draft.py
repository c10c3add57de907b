#!/usr/bin/env python3
"""Draft a JSON Schema (draft 2020-12 subset) from real documents: the keys every sample has
are required, types are unions of those seen, arrays merge their items. A starting point for
docs/schemas/*.schema.json, to be edited by hand (descriptions, enums, constants); never the
contract itself. Usage: json-schema-draft.py TITLE FILE.json... > docs/schemas/NAME.schema.json"""
import json
import sys

TYPES = {bool: 'boolean', int: 'integer', float: 'number', str: 'string', type(None): 'null',
         list: 'array', dict: 'object'}


def merge(schema, value):
    t = TYPES[type(value)]
    schema.setdefault('_types', set()).add(t)
    if t == 'object':
        props = schema.setdefault('_props', {})
        seen = schema.setdefault('_seen', [])
        seen.append(set(value))
        for k, v in value.items():
            merge(props.setdefault(k, {}), v)
    elif t == 'array':
        items = schema.setdefault('_items', {})
        for v in value:
            merge(items, v)
    elif t == 'string':
        schema.setdefault('_strings', set()).add(value)
    return schema


def emit(s):
    out = {}
    types = sorted(s.get('_types', []))
    if 'integer' in types and 'number' in types:
        types.remove('integer')
    if types:
        out['type'] = types[0] if len(types) == 1 else types
    if '_props' in s:
        out['properties'] = {k: emit(v) for k, v in s['_props'].items()}
        req = set.intersection(*s['_seen']) if s['_seen'] else set()
        out['required'] = [k for k in s['_props'] if k in req]
    if '_items' in s and s['_items']:
        out['items'] = emit(s['_items'])
    return out


def main():
    title, files = sys.argv[1], sys.argv[2:]
    root = {}
    for f in files:
        with open(f, encoding='utf-8') as fh:
            merge(root, json.load(fh))
    schema = {'$schema': 'https://json-schema.org/draft/2020-12/schema', 'title': title}
    schema.update(emit(root))
    json.dump(schema, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
