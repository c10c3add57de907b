#!/usr/bin/env python3
"""headroom workflow on the sample workflows (tests/fixtures/workflows/, both formats) over
the sparse model tree of tests/models/make_models.py, and on hostile workflows and
extra_model_paths.yaml files.

    workflow_test.py HEADROOM FIXTURES

Every model of the four samples is named, resolved (models/ aliases, a sub-folder written
with '\\\\', extra_model_paths.yaml) and its bytes are the file's; the latent geometry, the
samplers, the decodes and the order are read; a cycle, a dangling link and non-workflows are
one-line errors (exit 65); a missing model is reported by name and folder (exit 3)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
binary, fixtures = sys.argv[1], sys.argv[2]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


def run(*args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=60)


SAMPLES = {
    'sdxl_txt2img': {'models': {'sd_xl_base_1.0.safetensors': 'checkpoints/sd_xl_base_1.0.safetensors'},
                     'latent': (1024, 1024, 1, 1), 'run': 7, 'sampler_steps': 25},
    'flux_dev_dualclip': {'models': {'flux1-dev.safetensors': 'diffusion_models/flux1-dev.safetensors',
                                     't5xxl_fp16.safetensors': 'text_encoders/t5xxl_fp16.safetensors',
                                     'clip_l.safetensors': 'clip/clip_l.safetensors',
                                     'ae.safetensors': 'vae/ae.safetensors'},
                          'latent': (1024, 1024, 1, 1), 'run': 13},
    'sdxl_controlnet_2lora_4x': {'models': {'sd_xl_base_1.0.safetensors': 'checkpoints/sd_xl_base_1.0.safetensors',
                                            'detail_sdxl_r32.safetensors': 'loras/detail_sdxl_r32.safetensors',
                                            'SDXL\\style_sdxl_r32.safetensors': 'loras/SDXL/style_sdxl_r32.safetensors',
                                            'controlnet-canny-sdxl.safetensors': 'controlnet/controlnet-canny-sdxl.safetensors',
                                            '4x-UltraSharp.safetensors': 'upscale_models/4x-UltraSharp.safetensors'},
                                 'latent': (1152, 896, 2, 1), 'run': 14, 'tiled': True, 'upscale_model': True},
    'wan_i2v': {'models': {'wan2.1_i2v_480p_14B_fp16.safetensors': '../shared/wan/diffusion_models/wan2.1_i2v_480p_14B_fp16.safetensors',
                           'umt5_xxl_fp16.safetensors': '../shared/wan/text_encoders/umt5_xxl_fp16.safetensors',
                           'wan_2.1_vae.safetensors': '../shared/wan/vae/wan_2.1_vae.safetensors',
                           'clip_vision_h.safetensors': 'clip_vision/clip_vision_h.safetensors'},
                'latent': (832, 480, 1, 81), 'run': 13, 'weight_dtype': 'fp8_e4m3fn'},
}

tmp = tempfile.mkdtemp(prefix='hr-workflow-')
try:
    subprocess.run([sys.executable, os.path.join(here, '..', 'models', 'make_models.py'), tmp], check=True)
    exp = json.load(open(os.path.join(tmp, 'expected.json')))
    models = os.path.join(tmp, 'models')
    for name, want in SAMPLES.items():
        for suffix in ('.json', '.api.json'):
            f = os.path.join(fixtures, name + suffix)
            p = run('workflow', f, '--comfyui', tmp, '--json')
            tag = name + suffix
            check(p.returncode == 0, f'{tag}: exit {p.returncode}: {p.stderr} {p.stdout[:300]}')
            try:
                doc = json.loads(p.stdout)
            except ValueError:
                fails.append(f'{tag}: no JSON')
                continue
            check(doc['schema'] == 'headroom.workflow/1', f'{tag}: schema')
            check(doc['format'] == ('api' if suffix == '.api.json' else 'ui'), f'{tag}: format')
            got = {m['name']: m for m in doc['models']}
            check(set(got) == set(want['models']), f'{tag}: models {sorted(got)}')
            total = 0
            for mname, rel in want['models'].items():
                m = got.get(mname)
                if not m:
                    continue
                path = os.path.normpath(os.path.join(models, rel))
                check(m['resolved'] and os.path.normpath(m['path']) == path,
                      f'{tag}: {mname} resolved to {m["path"]}, expected {path}')
                e = exp[rel]
                check(m['file'] and m['file']['bytes'] == e['bytes'] and m['file']['kind'] == e['kind'],
                      f'{tag}: {mname} bytes/kind {m["file"] and (m["file"]["bytes"], m["file"]["kind"])}')
                total += e['bytes']
            check(doc['model_bytes'] == total, f'{tag}: model_bytes {doc["model_bytes"]} != {total}')
            check(doc['missing'] == 0, f'{tag}: missing {doc["missing"]}')
            lat = doc['latents'][0] if doc['latents'] else {}
            check((lat.get('width'), lat.get('height'), lat.get('batch'), lat.get('frames')) == want['latent'],
                  f'{tag}: latent {lat}')
            check(doc['nodes']['run'] == want['run'] and len(doc['order']) == want['run'],
                  f'{tag}: {doc["nodes"]["run"]} nodes run, expected {want["run"]}')
            # execution order: every loader before its sampler, the save last
            ids = [o['id'] for o in doc['order']]
            check(doc['order'][-1]['class_type'].startswith('Save'), f'{tag}: last node {doc["order"][-1]}')
            for m in doc['models']:
                check(ids.index(m['node_id']) < len(ids) - 1, f'{tag}: loader {m["node_id"]} order')
            if want.get('tiled'):
                check(doc['vae'][0]['tiled'] and doc['vae'][0]['tile_size'] == 1024, f'{tag}: tiled decode')
            if want.get('upscale_model'):
                check(any(u['with_model'] for u in doc['upscales']), f'{tag}: upscale with model')
                check(not any(u['class_type'] == 'ImageScaleBy' for u in doc['upscales']),
                      f'{tag}: the bypassed ImageScaleBy must not run')
            if 'weight_dtype' in want:
                check(got['wan2.1_i2v_480p_14B_fp16.safetensors']['weight_dtype'] == want['weight_dtype'],
                      f'{tag}: weight_dtype')
            if 'sampler_steps' in want:
                check(doc['samplers'][0]['steps'] == want['sampler_steps'], f'{tag}: steps')
        # LoRA strengths in both formats
    p = run('workflow', os.path.join(fixtures, 'sdxl_controlnet_2lora_4x.json'), '--comfyui', tmp, '--json')
    loras = [m for m in json.loads(p.stdout)['models'] if m['role'] == 'lora']
    check([(m['strength_model'], m['strength_clip']) for m in loras] == [(0.8, 0.8), (0.5, 1)], f'lora strengths {loras}')

    # ComfyUI's GET /queue body: its running prompt is the workflow (watch --comfyui estimates
    # a prompt another client owns from it): the same reading as the API file itself
    api = json.load(open(os.path.join(fixtures, 'sdxl_txt2img.api.json')))
    api = api.get('prompt', api)
    qf = os.path.join(tmp, 'queue.json')
    json.dump({'queue_running': [[3, 'a1b2', api, {'client_id': 'tab'}, ['9']]], 'queue_pending': []},
              open(qf, 'w'))
    pa = run('workflow', os.path.join(fixtures, 'sdxl_txt2img.api.json'), '--comfyui', tmp, '--json')
    pq = run('workflow', qf, '--comfyui', tmp, '--json')
    check(pq.returncode == 0, f'/queue body: exit {pq.returncode}: {pq.stderr}')
    if pq.returncode == 0 and pa.returncode == 0:
        da, dq = json.loads(pa.stdout), json.loads(pq.stdout)
        for k in ('format', 'models', 'latents', 'order'):
            check(da.get(k) == dq.get(k), f'/queue body: {k} differs: {dq.get(k)} vs {da.get(k)}')

    # a missing model: named with its folder, exit 3
    os.unlink(os.path.join(models, 'vae', 'ae.safetensors'))
    p = run('workflow', os.path.join(fixtures, 'flux_dev_dualclip.json'), '--comfyui', tmp)
    check(p.returncode == 3 and 'ae.safetensors' in p.stdout and 'not found in vae' in p.stdout,
          f'missing model: exit {p.returncode} {p.stdout}')

    # hostile workflows: one line naming the file and the fault, exit 65
    hostile = {
        'cycle.json': ({'1': {'class_type': 'A', 'inputs': {'x': ['2', 0]}},
                        '2': {'class_type': 'B', 'inputs': {'x': ['1', 0]}}}, 'cycle through nodes 1, 2'),
        'cycle_ui.json': ({'nodes': [{'id': 1, 'type': 'A', 'mode': 0}, {'id': 2, 'type': 'B', 'mode': 0}],
                           'links': [[1, 1, 0, 2, 0, 'X'], [2, 2, 0, 1, 0, 'X']], 'version': 0.4}, 'cycle'),
        'dangling.json': ({'nodes': [{'id': 1, 'type': 'A'}], 'links': [[1, 1, 0, 9, 0, 'X']]},
                          'node 9 is not in the workflow'),
        'dangling_api.json': ({'1': {'class_type': 'A', 'inputs': {'x': ['7', 0]}}}, 'node 7'),
        'array.json': ([1, 2, 3], 'not an object'),
        'neither.json': ({'hello': 'world'}, 'neither the UI format'),
        'no_class.json': ({'nodes': [{'id': 1}], 'links': []}, 'without an "id" and a "type"'),
        'self_subgraph.json': ({'nodes': [{'id': 1, 'type': 'sg'}], 'links': [],
                                'definitions': {'subgraphs': [{'id': 'sg', 'nodes': [{'id': 1, 'type': 'sg'}], 'links': []}]}},
                               'nested more than 8 deep'),
    }
    for fname, (doc, words) in hostile.items():
        path = os.path.join(tmp, fname)
        with open(path, 'w') as f:
            json.dump(doc, f)
        p = run('workflow', path)
        err = p.stderr.strip()
        check(p.returncode == 65 and path in err and words in err and '\n' not in err,
              f'{fname}: exit {p.returncode}, {err!r} should say {words!r}')
    for fname, data, words in (('deep.json', '[' * 10000 + ']' * 10000, 'nesting'),
                               ('bad_utf8.json', b'{"nodes": [], "\xff": 1}', 'UTF-8'),
                               ('truncated.json', '{"nodes": [{"id": 1', 'line 1')):
        path = os.path.join(tmp, fname)
        with open(path, 'wb') as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        p = run('workflow', path)
        check(p.returncode == 65 and words in p.stderr, f'{fname}: exit {p.returncode} {p.stderr!r}')

    # extra_model_paths.yaml that ComfyUI would not read: the line is named
    for text, words in (('a:\n  checkpoints: [x, y]\n', 'line 2'),
                        ('a:\n\tcheckpoints: x\n', 'line 2: a tab'),
                        ('a:\n  b:\n    c: d\n', 'line 3'),
                        ('- x\n', 'line 1'),
                        ('a:\n  is_default: maybe\n', 'line 2: is_default')):
        y = os.path.join(tmp, 'bad.yaml')
        with open(y, 'w') as f:
            f.write(text)
        p = run('workflow', os.path.join(fixtures, 'sdxl_txt2img.json'), '--extra-model-paths', y)
        check(p.returncode == 65 and words in p.stderr and 'bad.yaml' in p.stderr,
              f'yaml {text!r}: exit {p.returncode} {p.stderr!r}')
finally:
    shutil.rmtree(tmp, ignore_errors=True)

for f in fails:
    print('FAIL:', f)
print(f'workflow_test: {len(fails)} failure(s)')
sys.exit(1 if fails else 0)
