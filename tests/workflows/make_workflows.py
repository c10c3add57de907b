#!/usr/bin/env python3
"""Write the sample workflows of tests/fixtures/workflows/ in both formats, from one
description each: the UI format as the frontend saves it (schema 0.4 with array links, or
schema 1 with object links; widgets_values in the frontend's order; a muted node, a bypassed
node, a Reroute, a Note, a subgraph) and the API format as "Export (API)" writes it (muted,
bypassed and frontend-only nodes gone, reroutes resolved, subgraphs flattened).

    make_workflows.py OUTDIR"""
import json
import os
import sys

# A node: id, type, widgets (ordered name -> value, as serialised by the frontend),
# links (input name -> (source id, slot)), mode (0 run, 2 muted, 4 bypassed).


def N(id, type, widgets=None, links=None, mode=0, title=None):
    return {'id': id, 'type': type, 'w': widgets or {}, 'l': links or {}, 'mode': mode}


FRONTEND = {'Reroute', 'Note', 'MarkdownNote', 'PrimitiveNode'}


def ui(nodes, version=0.4, subgraphs=None):
    links, lid = [], 0
    out_nodes = []
    for n in nodes:
        inputs = []
        for name, (src, slot) in n['l'].items():
            lid += 1
            links.append((lid, src, slot, n['id'], len(inputs), 'ANY'))
            inputs.append({'name': name, 'type': 'ANY', 'link': lid})
        node = {'id': n['id'], 'type': n['type'], 'pos': [100 * n['id'] if isinstance(n['id'], int) else 0, 100],
                'size': [315, 98], 'flags': {}, 'order': len(out_nodes), 'mode': n['mode'],
                'inputs': inputs, 'outputs': [],
                'properties': {'Node name for S&R': n['type']},
                'widgets_values': list(n['w'].values())}
        out_nodes.append(node)
    doc = {'last_node_id': max(n['id'] for n in nodes if isinstance(n['id'], int)), 'last_link_id': lid,
           'nodes': out_nodes, 'groups': [], 'config': {}, 'extra': {'ds': {'scale': 1, 'offset': [0, 0]}},
           'version': version}
    if version == 1:
        doc['links'] = [{'id': a, 'origin_id': b, 'origin_slot': c, 'target_id': d, 'target_slot': e, 'type': f}
                        for a, b, c, d, e, f in links]
        doc['state'] = {'lastNodeId': doc.pop('last_node_id'), 'lastLinkId': doc.pop('last_link_id')}
    else:
        doc['links'] = [list(x) for x in links]
    if subgraphs:
        doc['definitions'] = {'subgraphs': subgraphs}
    return doc


def api(nodes):
    """What "Export (API)" writes: running nodes only, links through reroutes and bypassed
    nodes resolved to their source."""
    by = {n['id']: n for n in nodes}

    def source(src, slot):
        n = by[src]
        while n['type'] == 'Reroute' or n['mode'] == 4:
            (src, slot), = [v for v in n['l'].values()][:1] or [(None, None)]
            n = by[src]
        return [str(src), slot]

    out = {}
    for n in nodes:
        if n['mode'] in (2, 4) or n['type'] in FRONTEND:
            continue
        inputs = {k: v for k, v in n['w'].items() if k not in ('control_after_generate', 'upload')}
        for name, (src, slot) in n['l'].items():
            if by[src]['mode'] == 2:
                continue
            inputs[name] = source(src, slot)
        out[str(n['id'])] = {'inputs': inputs, 'class_type': n['type'], '_meta': {'title': n['type']}}
    return out


def sdxl():
    return [
        N(4, 'CheckpointLoaderSimple', {'ckpt_name': 'sd_xl_base_1.0.safetensors'}),
        N(5, 'EmptyLatentImage', {'width': 1024, 'height': 1024, 'batch_size': 1}),
        N(6, 'CLIPTextEncode', {'text': 'a lighthouse at dusk, 35mm photo'}, {'clip': (4, 1)}),
        N(7, 'CLIPTextEncode', {'text': 'blurry, lowres'}, {'clip': (4, 1)}),
        N(3, 'KSampler', {'seed': 156680208700286, 'control_after_generate': 'randomize', 'steps': 25,
                          'cfg': 7, 'sampler_name': 'dpmpp_2m', 'scheduler': 'karras', 'denoise': 1},
          {'model': (4, 0), 'positive': (6, 0), 'negative': (7, 0), 'latent_image': (5, 0)}),
        N(8, 'VAEDecode', {}, {'samples': (3, 0), 'vae': (4, 2)}),
        N(9, 'SaveImage', {'filename_prefix': 'ComfyUI'}, {'images': (8, 0)}),
        N(10, 'PreviewImage', {}, {'images': (8, 0)}, mode=2),
        N(11, 'Note', {'text': 'SDXL base, 1024x1024'}),
    ]


def flux():
    return [
        N(12, 'UNETLoader', {'unet_name': 'flux1-dev.safetensors', 'weight_dtype': 'default'}),
        N(11, 'DualCLIPLoader', {'clip_name1': 't5xxl_fp16.safetensors', 'clip_name2': 'clip_l.safetensors',
                                 'type': 'flux', 'device': 'default'}),
        N(10, 'VAELoader', {'vae_name': 'ae.safetensors'}),
        N(6, 'CLIPTextEncode', {'text': 'a cat holding a sign that says hello'}, {'clip': (11, 0)}),
        N(26, 'FluxGuidance', {'guidance': 3.5}, {'conditioning': (6, 0)}),
        N(22, 'BasicGuider', {}, {'model': (12, 0), 'conditioning': (26, 0)}),
        N(25, 'RandomNoise', {'noise_seed': 219670278747233, 'control_after_generate': 'randomize'}),
        N(16, 'KSamplerSelect', {'sampler_name': 'euler'}),
        N(17, 'BasicScheduler', {'scheduler': 'simple', 'steps': 20, 'denoise': 1}, {'model': (12, 0)}),
        N(27, 'EmptySD3LatentImage', {'width': 1024, 'height': 1024, 'batch_size': 1}),
        N(13, 'SamplerCustomAdvanced', {}, {'noise': (25, 0), 'guider': (22, 0), 'sampler': (16, 0),
                                            'sigmas': (17, 0), 'latent_image': (27, 0)}),
        N(30, 'Reroute', {}, {'': (10, 0)}),
        N(8, 'VAEDecode', {}, {'samples': (13, 0), 'vae': (30, 0)}),
        N(9, 'SaveImage', {'filename_prefix': 'flux'}, {'images': (8, 0)}),
    ]


def sdxl_cn():
    return [
        N(4, 'CheckpointLoaderSimple', {'ckpt_name': 'sd_xl_base_1.0.safetensors'}),
        N(20, 'LoraLoader', {'lora_name': 'detail_sdxl_r32.safetensors', 'strength_model': 0.8,
                             'strength_clip': 0.8}, {'model': (4, 0), 'clip': (4, 1)}),
        N(21, 'LoraLoader', {'lora_name': 'SDXL\\style_sdxl_r32.safetensors', 'strength_model': 0.5,
                             'strength_clip': 1}, {'model': (20, 0), 'clip': (20, 1)}),
        N(6, 'CLIPTextEncode', {'text': 'a castle on a cliff, detailed'}, {'clip': (21, 1)}),
        N(7, 'CLIPTextEncode', {'text': 'ugly'}, {'clip': (21, 1)}),
        N(30, 'ControlNetLoader', {'control_net_name': 'controlnet-canny-sdxl.safetensors'}),
        N(31, 'LoadImage', {'image': 'canny.png', 'upload': 'image'}),
        N(32, 'ControlNetApplyAdvanced', {'strength': 0.7, 'start_percent': 0, 'end_percent': 0.8},
          {'positive': (6, 0), 'negative': (7, 0), 'control_net': (30, 0), 'image': (31, 0), 'vae': (4, 2)}),
        N(5, 'EmptyLatentImage', {'width': 1152, 'height': 896, 'batch_size': 2}),
        N(3, 'KSampler', {'seed': 42, 'control_after_generate': 'fixed', 'steps': 30, 'cfg': 6.5,
                          'sampler_name': 'euler_ancestral', 'scheduler': 'normal', 'denoise': 1},
          {'model': (21, 0), 'positive': (32, 0), 'negative': (32, 1), 'latent_image': (5, 0)}),
        N(8, 'VAEDecodeTiled', {'tile_size': 1024, 'overlap': 64, 'temporal_size': 64, 'temporal_overlap': 8},
          {'samples': (3, 0), 'vae': (4, 2)}),
        N(40, 'ImageScaleBy', {'upscale_method': 'lanczos', 'scale_by': 0.5}, {'image': (8, 0)}, mode=4),
        N(50, 'UpscaleModelLoader', {'model_name': '4x-UltraSharp.safetensors'}),
        N(51, 'ImageUpscaleWithModel', {}, {'upscale_model': (50, 0), 'image': (40, 0)}),
        N(9, 'SaveImage', {'filename_prefix': 'castle'}, {'images': (51, 0)}),
    ]


def sdxl_cn_ui():
    """The same, with the upscale in a subgraph the way the current frontend saves it."""
    nodes = sdxl_cn()
    outer = [n for n in nodes if n['id'] not in (50, 51)]
    sg_id = '6f1c2c57-9a0e-4f55-9c5b-1b2f3e4a5d60'
    doc = ui(outer + [N(60, sg_id, {}, {'image': (40, 0)})])
    for n in doc['nodes']:
        if n['id'] == 9:
            pass
    # SaveImage takes the subgraph's output
    for l in doc['links']:
        if l[3] == 9:
            l[1], l[2] = 60, 0
    doc['links'] = [l for l in doc['links'] if l[1] != 51]
    lid = max(l[0] for l in doc['links']) + 1
    doc['links'].append([lid, 60, 0, 9, 0, 'IMAGE'])
    doc['definitions'] = {'subgraphs': [{
        'id': sg_id, 'version': 1, 'name': '4x upscale',
        'state': {'lastNodeId': 2, 'lastLinkId': 3},
        'inputNode': {'id': -10, 'bounding': [0, 0, 120, 60]},
        'outputNode': {'id': -20, 'bounding': [600, 0, 120, 60]},
        'inputs': [{'id': 'in0', 'name': 'image', 'type': 'IMAGE', 'linkIds': [2]}],
        'outputs': [{'id': 'out0', 'name': 'IMAGE', 'type': 'IMAGE', 'linkIds': [3]}],
        'widgets': [],
        'nodes': [
            {'id': 1, 'type': 'UpscaleModelLoader', 'pos': [0, 0], 'size': [300, 60], 'flags': {}, 'order': 0,
             'mode': 0, 'inputs': [], 'outputs': [{'name': 'UPSCALE_MODEL', 'type': 'UPSCALE_MODEL', 'links': [1]}],
             'properties': {}, 'widgets_values': ['4x-UltraSharp.safetensors']},
            {'id': 2, 'type': 'ImageUpscaleWithModel', 'pos': [300, 0], 'size': [300, 60], 'flags': {}, 'order': 1,
             'mode': 0, 'inputs': [{'name': 'upscale_model', 'type': 'UPSCALE_MODEL', 'link': 1},
                                   {'name': 'image', 'type': 'IMAGE', 'link': 2}],
             'outputs': [{'name': 'IMAGE', 'type': 'IMAGE', 'links': [3]}], 'properties': {}, 'widgets_values': []},
        ],
        'links': [
            {'id': 1, 'origin_id': 1, 'origin_slot': 0, 'target_id': 2, 'target_slot': 0, 'type': 'UPSCALE_MODEL'},
            {'id': 2, 'origin_id': -10, 'origin_slot': 0, 'target_id': 2, 'target_slot': 1, 'type': 'IMAGE'},
            {'id': 3, 'origin_id': 2, 'origin_slot': 0, 'target_id': -20, 'target_slot': 0, 'type': 'IMAGE'},
        ],
    }]}
    return doc


def wan_i2v():
    return [
        N(37, 'UNETLoader', {'unet_name': 'wan2.1_i2v_480p_14B_fp16.safetensors', 'weight_dtype': 'fp8_e4m3fn'}),
        N(38, 'CLIPLoader', {'clip_name': 'umt5_xxl_fp16.safetensors', 'type': 'wan', 'device': 'default'}),
        N(39, 'VAELoader', {'vae_name': 'wan_2.1_vae.safetensors'}),
        N(49, 'CLIPVisionLoader', {'clip_name': 'clip_vision_h.safetensors'}),
        N(52, 'LoadImage', {'image': 'start.png', 'upload': 'image'}),
        N(51, 'CLIPVisionEncode', {'crop': 'none'}, {'clip_vision': (49, 0), 'image': (52, 0)}),
        N(6, 'CLIPTextEncode', {'text': 'a fox runs through snow'}, {'clip': (38, 0)}),
        N(7, 'CLIPTextEncode', {'text': 'static, blurry'}, {'clip': (38, 0)}),
        N(54, 'ModelSamplingSD3', {'shift': 8}, {'model': (37, 0)}),
        N(50, 'WanImageToVideo', {'width': 832, 'height': 480, 'length': 81, 'batch_size': 1},
          {'positive': (6, 0), 'negative': (7, 0), 'vae': (39, 0), 'clip_vision_output': (51, 0),
           'start_image': (52, 0)}),
        N(3, 'KSampler', {'seed': 987, 'control_after_generate': 'randomize', 'steps': 20, 'cfg': 6,
                          'sampler_name': 'uni_pc', 'scheduler': 'simple', 'denoise': 1},
          {'model': (54, 0), 'positive': (50, 0), 'negative': (50, 1), 'latent_image': (50, 2)}),
        N(8, 'VAEDecode', {}, {'samples': (3, 0), 'vae': (39, 0)}),
        N(28, 'SaveAnimatedWEBP', {'filename_prefix': 'wan', 'fps': 16, 'lossless': False, 'quality': 90,
                                   'method': 'default'}, {'images': (8, 0)}),
    ]


def main(out):
    os.makedirs(out, exist_ok=True)

    def write(name, doc):
        with open(os.path.join(out, name), 'w') as f:
            json.dump(doc, f, indent=1)
            f.write('\n')

    write('sdxl_txt2img.json', ui(sdxl()))
    write('sdxl_txt2img.api.json', api(sdxl()))
    write('flux_dev_dualclip.json', ui(flux(), version=1))
    write('flux_dev_dualclip.api.json', api(flux()))
    write('sdxl_controlnet_2lora_4x.json', sdxl_cn_ui())
    write('sdxl_controlnet_2lora_4x.api.json', api(sdxl_cn()))
    write('wan_i2v.json', ui(wan_i2v()))
    write('wan_i2v.api.json', {'client_id': 'headroom-test', 'prompt': api(wan_i2v())})


if __name__ == '__main__':
    main(sys.argv[1])
