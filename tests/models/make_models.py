#!/usr/bin/env python3
"""Write model files with REAL headers over SPARSE data, at realistic sizes, and hostile ones.

    make_models.py DIR        writes DIR/models/<folder>/<file> and DIR/expected.json

The headers are what the real files carry (safetensors JSON, GGUF v3 key-values and tensor
infos, a torch zip directory); the weights are holes (truncate), so a 23.8 GB FLUX file costs
a few kilobytes of disk. expected.json holds, per file, the exact bytes the header implies and
the kind and architecture headroom must find. Hostile files go to DIR/hostile/ with the words
their error must contain."""
import json
import os
import struct
import sys
import zipfile

BITS = {'F64': 64, 'F32': 32, 'F16': 16, 'BF16': 16, 'F8_E4M3': 8, 'F8_E5M2': 8, 'I8': 8, 'U8': 8,
        'X_FUTURE': 8}  # a dtype no version knows yet: reported, never fatal


class ST:
    """A safetensors file under construction: tensors in order, contiguous offsets."""

    def __init__(self):
        self.t = []  # (name, dtype, shape)
        self.meta = None

    def add(self, name, dtype, shape):
        self.t.append((name, dtype, list(shape)))

    def fill(self, prefix, params, dtype, width=3072):
        """Tensors named like real layers until `params` elements are reached exactly."""
        i = 0
        while params > 0:
            rows = min(params // width, 4096)
            if rows == 0:
                self.add(f'{prefix}{i}.bias', dtype, [params])
                params = 0
            else:
                self.add(f'{prefix}{i}.weight', dtype, [rows, width])
                params -= rows * width
            i += 1

    def params(self):
        n = 0
        for _, _, s in self.t:
            k = 1
            for d in s:
                k *= d
            n += k
        return n

    def write(self, path):
        head = {}
        off = 0
        dt = {}
        for name, dtype, shape in self.t:
            k = 1
            for d in shape:
                k *= d
            nb = k * BITS[dtype] // 8
            head[name] = {'dtype': dtype, 'shape': shape, 'data_offsets': [off, off + nb]}
            dt[dtype] = dt.get(dtype, 0) + nb
            off += nb
        if self.meta is not None:
            head['__metadata__'] = self.meta
        j = json.dumps(head, separators=(',', ':')).encode()
        j += b' ' * (-len(j) % 8)  # the writer's alignment padding
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            f.write(struct.pack('<Q', len(j)) + j)
            f.truncate(8 + len(j) + off)
        return {'bytes': 8 + len(j) + off, 'tensor_bytes': off, 'params': self.params(),
                'format': 'safetensors', 'dtypes': dt}


def sdxl_checkpoint():
    s = ST()
    u = 'model.diffusion_model.'
    s.add(u + 'input_blocks.0.0.weight', 'F16', [320, 4, 3, 3])
    s.add(u + 'label_emb.0.0.weight', 'F16', [1280, 2816])
    s.add(u + 'input_blocks.4.1.transformer_blocks.0.attn2.to_k.weight', 'F16', [640, 2048])
    s.fill(u + 'output_blocks.', 2567463684 - s.params(), 'F16', 1280)
    n0 = s.params()
    s.add('conditioner.embedders.0.transformer.text_model.encoder.layers.0.self_attn.q_proj.weight', 'F16', [768, 768])
    s.fill('conditioner.embedders.0.transformer.text_model.encoder.layers.1.mlp.fc', 123060480 - 768 * 768, 'F16', 768)
    s.add('conditioner.embedders.1.model.ln_final.weight', 'F16', [1280])
    s.add('conditioner.embedders.1.model.transformer.resblocks.0.attn.in_proj_weight', 'F16', [3840, 1280])
    s.fill('conditioner.embedders.1.model.transformer.resblocks.1.mlp.c_fc', 694659841 - 1280 - 3840 * 1280, 'F16', 1280)
    n1 = s.params()
    s.add('first_stage_model.decoder.conv_in.weight', 'F16', [512, 4, 3, 3])
    s.add('first_stage_model.decoder.up.0.block.0.conv1.weight', 'F16', [128, 128, 3, 3])
    s.fill('first_stage_model.encoder.mid.block_', 83653863 - 512 * 4 * 9 - 128 * 128 * 9, 'F16', 512)
    e = s.write
    return s, {'kind': 'checkpoint', 'architecture': 'SDXL',
               'components': {'diffusion_model': n0 * 2, 'text_encoder': (n1 - n0) * 2,
                              'vae': (s.params() - n1) * 2}}


def flux(dtype):
    s = ST()
    s.add('img_in.weight', 'BF16', [3072, 64])
    s.add('guidance_in.in_layer.weight', 'BF16', [3072, 256])
    s.add('double_blocks.0.img_attn.qkv.weight', dtype, [9216, 3072])
    s.add('single_blocks.0.linear1.weight', dtype, [21504, 3072])
    for i in range(38):
        s.add(f'single_blocks.{i}.norm.query_norm.scale', 'BF16', [128])
    s.fill('double_blocks.1.img_mlp.', 11901408320 - s.params(), dtype, 3072)
    return s, {'kind': 'diffusion_model', 'architecture': 'FLUX.1 dev'}


def t5xxl():
    s = ST()
    s.add('shared.weight', 'F16', [32128, 4096])
    s.add('encoder.block.0.layer.1.DenseReluDense.wi_1.weight', 'F16', [10240, 4096])
    s.add('encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight', 'F16', [32, 64])
    s.fill('encoder.block.1.layer.1.DenseReluDense.wo.', 4762310656 - s.params(), 'F16', 4096)
    return s, {'kind': 'text_encoder', 'architecture': 'T5-XXL'}


def clip_l():
    s = ST()
    s.add('text_model.encoder.layers.0.self_attn.q_proj.weight', 'F16', [768, 768])
    s.add('text_model.embeddings.token_embedding.weight', 'F16', [49408, 768])
    s.fill('text_model.encoder.layers.1.mlp.fc', 123060480 - s.params(), 'F16', 768)
    return s, {'kind': 'text_encoder', 'architecture': 'CLIP-L'}


def flux_vae():
    s = ST()
    s.add('decoder.conv_in.weight', 'F32', [512, 16, 3, 3])
    s.add('decoder.up.0.block.0.conv1.weight', 'F32', [128, 128, 3, 3])
    s.fill('encoder.mid.block_', 83819683 - s.params(), 'F32', 512)
    return s, {'kind': 'vae', 'architecture': '16-channel VAE (FLUX.1/SD3)'}


def lora():
    s = ST()
    for i in range(70):
        for part in ('to_q', 'to_k', 'to_v', 'to_out_0'):
            b = f'lora_unet_input_blocks_4_1_transformer_blocks_{i % 10}_attn{i}_{part}'
            s.add(b + '.lora_down.weight', 'F16', [32, 1280])
            s.add(b + '.lora_up.weight', 'F16', [1280, 32])
            s.add(b + '.alpha', 'F16', [])
    s.add('lora_te2_text_model_encoder_layers_0_self_attn_q_proj.lora_down.weight', 'F16', [32, 1280])
    s.add('lora_te2_text_model_encoder_layers_0_self_attn_q_proj.lora_up.weight', 'F16', [1280, 32])
    s.meta = {'ss_network_dim': '32', 'ss_base_model_version': 'sdxl_base_v1-0'}
    return s, {'kind': 'lora', 'architecture': 'SDXL (model + text encoder)', 'lora_rank': 32}


def controlnet_sdxl():
    s = ST()
    s.add('controlnet_cond_embedding.conv_in.weight', 'F16', [16, 3, 3, 3])
    s.add('down_blocks.1.attentions.0.transformer_blocks.0.attn2.to_k.weight', 'F16', [640, 2048])
    s.fill('down_blocks.2.resnets.', 1251000000 - s.params(), 'F16', 1280)
    return s, {'kind': 'controlnet', 'architecture': 'SDXL'}


def esrgan():
    s = ST()
    s.add('model.0.weight', 'F32', [64, 3, 3, 3])
    s.add('model.1.sub.0.RDB1.conv1.0.weight', 'F32', [32, 64, 3, 3])
    for k in (3, 6, 8, 10):
        s.add(f'model.{k}.weight', 'F32', [64 if k < 10 else 3, 64, 3, 3])
    s.fill('model.1.sub.1.RDB2.conv', 16697987 - s.params(), 'F32', 576)
    return s, {'kind': 'upscale_model', 'architecture': 'ESRGAN (RRDB)', 'upscale': 4}


def wan_i2v():
    s = ST()
    s.add('patch_embedding.weight', 'F16', [5120, 36, 1, 2, 2])
    s.add('blocks.0.self_attn.q.weight', 'F16', [5120, 5120])
    s.add('img_emb.proj.0.weight', 'F32', [1280])
    s.fill('blocks.1.ffn.', 16394500000 - s.params(), 'F16', 5120)
    return s, {'kind': 'diffusion_model', 'architecture': 'Wan 2.1 14B i2v'}


def wan_vae():
    s = ST()
    s.add('decoder.conv1.weight', 'BF16', [384, 16, 3, 3, 3])
    s.add('decoder.head.2.weight', 'BF16', [3, 96, 3, 3, 3])
    s.fill('encoder.downsamples.', 126892531 - s.params(), 'BF16', 384)
    return s, {'kind': 'vae', 'architecture': 'Wan 2.1 VAE'}


def clip_vision_h():
    s = ST()
    s.add('vision_model.encoder.layers.0.self_attn.q_proj.weight', 'F16', [1280, 1280])
    s.add('vision_model.embeddings.patch_embedding.weight', 'F16', [1280, 3, 14, 14])
    s.fill('vision_model.encoder.layers.1.mlp.fc', 632076800 - s.params(), 'F16', 1280)
    return s, {'kind': 'clip_vision', 'architecture': 'CLIP ViT-H'}


def umt5():
    s = ST()
    s.add('shared.weight', 'F16', [256384, 4096])
    s.add('encoder.block.0.layer.1.DenseReluDense.wi_1.weight', 'F16', [10240, 4096])
    s.add('encoder.block.1.layer.0.SelfAttention.relative_attention_bias.weight', 'F16', [32, 64])
    s.fill('encoder.block.2.layer.1.DenseReluDense.wo.', 5680910336 - s.params(), 'F16', 4096)
    return s, {'kind': 'text_encoder', 'architecture': 'UMT5-XXL'}


# ---- the other families the classifier names (issue 12): one realistic file each ----
def sd15_checkpoint():
    s = ST()
    u = 'model.diffusion_model.'
    s.add(u + 'input_blocks.0.0.weight', 'F32', [320, 4, 3, 3])
    s.add(u + 'input_blocks.1.1.transformer_blocks.0.attn2.to_k.weight', 'F32', [320, 768])
    s.fill(u + 'output_blocks.', 859520964 - s.params(), 'F32', 1280)
    n0 = s.params()
    s.add('cond_stage_model.transformer.text_model.encoder.layers.0.self_attn.q_proj.weight', 'F32', [768, 768])
    s.fill('cond_stage_model.transformer.text_model.encoder.layers.1.mlp.fc', 123060480 - 768 * 768, 'F32', 768)
    n1 = s.params()
    s.add('first_stage_model.decoder.conv_in.weight', 'F32', [512, 4, 3, 3])
    s.add('first_stage_model.decoder.up.0.block.0.conv1.weight', 'F32', [128, 128, 3, 3])
    s.fill('first_stage_model.encoder.mid.block_', 83653863 - 512 * 4 * 9 - 128 * 128 * 9, 'F32', 512)
    return s, {'kind': 'checkpoint', 'architecture': 'SD1.x',
               'components': {'diffusion_model': n0 * 4, 'text_encoder': (n1 - n0) * 4,
                              'vae': (s.params() - n1) * 4},
               'component_arch': {'text_encoder': 'CLIP-L', 'vae': 'SD VAE (4 channels)'}}


def sd21_checkpoint():
    s = ST()
    u = 'model.diffusion_model.'
    s.add(u + 'input_blocks.0.0.weight', 'F16', [320, 4, 3, 3])
    s.add(u + 'input_blocks.1.1.transformer_blocks.0.attn2.to_k.weight', 'F16', [320, 1024])
    s.fill(u + 'output_blocks.', 865910724 - s.params(), 'F16', 1280)
    s.add('cond_stage_model.model.ln_final.weight', 'F16', [1024])
    s.add('cond_stage_model.model.transformer.resblocks.0.attn.in_proj_weight', 'F16', [3072, 1024])
    s.fill('cond_stage_model.model.transformer.resblocks.1.mlp.c_fc', 340387845 - 1024 - 3072 * 1024, 'F16', 1024)
    s.add('first_stage_model.decoder.conv_in.weight', 'F16', [512, 4, 3, 3])
    s.add('first_stage_model.decoder.up.0.block.0.conv1.weight', 'F16', [128, 128, 3, 3])
    s.fill('first_stage_model.encoder.mid.block_', 83653863 - 512 * 4 * 9 - 128 * 128 * 9, 'F16', 512)
    return s, {'kind': 'checkpoint', 'architecture': 'SD2.x', 'component_arch': {'text_encoder': 'CLIP-H'}}


def sd3(depth, total, attn2=False):
    def make():
        s = ST()
        for i in range(depth):
            s.add(f'joint_blocks.{i}.x_block.attn.qkv.weight', 'F16', [3 * 64 * depth, 64 * depth])
            if attn2:
                s.add(f'joint_blocks.{i}.x_block.attn2.qkv.weight', 'F16', [3 * 64 * depth, 64 * depth])
        s.add('x_embedder.proj.weight', 'F16', [64 * depth, 16, 2, 2])
        s.fill('final_layer.', total - s.params(), 'F16', 64 * depth)
        name = 'SD3.5 Large' if depth >= 38 else 'SD3.5 Medium' if attn2 else 'SD3 Medium'
        return s, {'kind': 'diffusion_model', 'architecture': name}
    return make


def flux_schnell():
    s = ST()
    s.add('img_in.weight', 'BF16', [3072, 64])
    s.add('double_blocks.0.img_attn.qkv.weight', 'BF16', [9216, 3072])
    s.add('single_blocks.0.linear1.weight', 'BF16', [21504, 3072])
    s.fill('double_blocks.1.img_mlp.', 11895999552 - s.params(), 'BF16', 3072)
    return s, {'kind': 'diffusion_model', 'architecture': 'FLUX.1 schnell'}


def clip_g():
    s = ST()
    s.add('text_model.encoder.layers.0.self_attn.q_proj.weight', 'F16', [1280, 1280])
    s.add('text_model.embeddings.token_embedding.weight', 'F16', [49408, 1280])
    s.fill('text_model.encoder.layers.1.mlp.fc', 694659840 - s.params(), 'F16', 1280)
    return s, {'kind': 'text_encoder', 'architecture': 'CLIP-G'}


def llm(emb_rows, dim, total, extra, vl, fam):
    def make():
        s = ST()
        s.add('model.embed_tokens.weight', 'BF16', [emb_rows, dim])
        s.add('model.layers.0.self_attn.q_proj.weight', 'BF16', [dim, dim])
        for name in extra:
            s.add('model.layers.0.' + name, 'BF16', [dim])
        if vl:
            s.add('visual.patch_embed.proj.weight', 'BF16', [1280, 3, 2, 14, 14])
        s.fill('model.layers.1.mlp.gate_proj.', total - s.params(), 'BF16', dim)
        b = total / 1e9
        return s, {'kind': 'text_encoder',
                   'architecture': f'{fam}{"-VL" if vl else ""} {b:.0f}B (LLM encoder)' if b >= 10 else
                                   f'{fam}{"-VL" if vl else ""} {b:.1f}B (LLM encoder)'}
    return make


def hunyuan_video():
    s = ST()
    s.add('img_in.proj.weight', 'BF16', [3072, 16, 1, 2, 2])
    s.add('double_blocks.0.img_attn_qkv.weight', 'BF16', [9216, 3072])
    s.fill('single_blocks.0.linear1.', 12821012544 - s.params(), 'BF16', 3072)
    return s, {'kind': 'diffusion_model', 'architecture': 'HunyuanVideo'}


def ltxv():
    s = ST()
    p = 'model.diffusion_model.'
    s.add(p + 'patchify_proj.weight', 'BF16', [2048, 128])
    s.add(p + 'adaln_single.emb.timestep_embedder.linear_1.weight', 'BF16', [2048, 256])
    s.fill(p + 'transformer_blocks.0.ff.', 1923385472 - s.params(), 'BF16', 2048)
    return s, {'kind': 'diffusion_model', 'architecture': 'LTX-Video 1.9B'}


def future_dtype():
    s = ST()
    s.add('img_in.weight', 'X_FUTURE', [3072, 64])
    s.add('double_blocks.0.img_attn.qkv.weight', 'BF16', [9216, 3072])
    s.add('single_blocks.0.linear1.weight', 'BF16', [21504, 3072])
    return s, {'kind': 'diffusion_model', 'architecture': 'FLUX.1 schnell', 'unknown_dtypes': ['X_FUTURE']}


def unknown_arch():
    s = ST()
    s.fill('trunk.stage.', 123456789, 'F16', 1024)
    return s, {'kind': 'diffusion_model', 'architecture': 'unknown architecture'}


def bare_pickle(path):
    """A legacy .ckpt that is a bare pickle stream: its opcodes would import os.system if
    unpickled; headroom must only take its size."""
    body = b'\x80\x02cposix\nsystem\nq\x00X\x04\x00\x00\x00trueq\x01\x85q\x02Rq\x03.'
    raw(path, body, 2_132_000_000)
    return {'bytes': 2_132_000_000, 'tensor_bytes': 2_132_000_000, 'format': 'pickle', 'kind': 'checkpoint'}


# ---- GGUF ----
GG = {'F32': (0, 1, 4), 'F16': (1, 1, 2), 'Q8_0': (8, 32, 34), 'Q4_K': (12, 256, 144), 'BF16': (30, 1, 2)}


def gstr(s):
    b = s.encode()
    return struct.pack('<Q', len(b)) + b


def gguf(path, quant, arch='flux'):
    kv = [('general.architecture', 8, gstr(arch)), ('general.quantization_version', 4, struct.pack('<I', 2))]
    tensors = [('img_in.weight', 'BF16', [64, 3072]), ('guidance_in.in_layer.weight', 'BF16', [256, 3072]),
               ('double_blocks.0.img_attn.qkv.weight', quant, [3072, 9216]),
               ('single_blocks.0.linear1.weight', quant, [3072, 21504])]
    have = sum(a * b for _, _, (a, b) in tensors)
    i = 0
    left = 11901408320 - have
    while left >= 3072:
        rows = min(left // 3072, 12288)
        tensors.append((f'double_blocks.1.img_mlp.{i}.weight', quant, [3072, rows]))
        left -= rows * 3072
        i += 1
    out = b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(kv))
    for k, t, v in kv:
        out += gstr(k) + struct.pack('<I', t) + v
    off = 0
    total = 0
    dt = {}
    params = 0
    for name, q, shape in tensors:
        ty, be, bb = GG[q]
        n = shape[0] * shape[1]
        nb = n // be * bb
        out += gstr(name) + struct.pack('<I', len(shape)) + b''.join(struct.pack('<Q', d) for d in shape)
        out += struct.pack('<IQ', ty, off)
        off += nb
        off += -off % 32
        total += nb
        dt[q] = dt.get(q, 0) + nb
        params += n
    out += b'\0' * (-len(out) % 32)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(out)
        f.truncate(len(out) + off)
    return {'bytes': len(out) + off, 'tensor_bytes': total, 'params': params, 'format': 'gguf',
            'dtypes': dt, 'kind': 'diffusion_model', 'architecture': 'FLUX.1 dev'}


def torch_zip(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_STORED) as z:
        z.writestr('archive/data.pkl', b'\x80\x02}q\x00.')
        z.writestr('archive/version', b'3\n')
        z.writestr('archive/data/0', b'\0' * 4096)
        z.writestr('archive/data/1', b'\0' * 1000)
    return {'bytes': os.path.getsize(path), 'tensor_bytes': 5096, 'params': None,
            'format': 'torch-zip', 'kind': 'upscale_model', 'upscale': 4}


def main(d):
    exp = {}
    m = os.path.join(d, 'models')

    def st(folder, name, fn):
        s, e = fn() if callable(fn) else fn
        info = s.write(os.path.join(m, folder, name))
        info.update(e)
        exp[f'{folder}/{name}'] = info

    st('checkpoints', 'sd_xl_base_1.0.safetensors', sdxl_checkpoint)
    st('diffusion_models', 'flux1-dev.safetensors', lambda: flux('BF16'))
    st('diffusion_models', 'flux1-dev-fp8.safetensors', lambda: flux('F8_E4M3'))
    st('text_encoders', 't5xxl_fp16.safetensors', t5xxl)
    st('clip', 'clip_l.safetensors', clip_l)
    st('vae', 'ae.safetensors', flux_vae)
    st('loras', 'detail_sdxl_r32.safetensors', lora)
    st('controlnet', 'controlnet-canny-sdxl.safetensors', controlnet_sdxl)
    st('upscale_models', '4x-UltraSharp.safetensors', esrgan)
    st('loras', 'SDXL/style_sdxl_r32.safetensors', lora)
    st('clip_vision', 'clip_vision_h.safetensors', clip_vision_h)
    st('checkpoints', 'v1-5-pruned-emaonly.safetensors', sd15_checkpoint)
    st('checkpoints', 'v2-1_768-ema-pruned.safetensors', sd21_checkpoint)
    st('diffusion_models', 'sd3_medium.safetensors', sd3(24, 2028328000))
    st('diffusion_models', 'sd3.5_medium.safetensors', sd3(24, 2243171000, attn2=True))
    st('diffusion_models', 'sd3.5_large.safetensors', sd3(38, 8056627000))
    st('diffusion_models', 'flux1-schnell.safetensors', flux_schnell)
    st('diffusion_models', 'hunyuan_video_t2v_720p_bf16.safetensors', hunyuan_video)
    st('diffusion_models', 'ltx-video-2b-v0.9.5.safetensors', ltxv)
    st('diffusion_models', 'future-dtype.safetensors', future_dtype)
    st('diffusion_models', 'mystery.safetensors', unknown_arch)
    st('text_encoders', 'clip_g.safetensors', clip_g)
    st('text_encoders', 'qwen_2.5_vl_7b.safetensors',
       llm(152064, 3584, 8292166656, ['self_attn.q_proj.bias'], True, 'Qwen2.5'))
    st('text_encoders', 'llama_3.1_8b.safetensors', llm(128256, 4096, 8030261248, [], False, 'Llama 3'))
    st('text_encoders', 'gemma_3_12b.safetensors',
       llm(262208, 3840, 11766034688, ['pre_feedforward_layernorm.weight'], False, 'Gemma'))
    st('text_encoders', 'qwen_3_4b.safetensors',
       llm(151936, 2560, 4022468096, ['self_attn.q_norm.weight'], False, 'Qwen3'))
    exp['checkpoints/sd-v1-4.ckpt'] = bare_pickle(os.path.join(m, 'checkpoints', 'sd-v1-4.ckpt'))
    # the Wan files live outside models/, found through extra_model_paths.yaml
    for folder, name, fn in (('diffusion_models', 'wan2.1_i2v_480p_14B_fp16.safetensors', wan_i2v),
                             ('text_encoders', 'umt5_xxl_fp16.safetensors', umt5),
                             ('vae', 'wan_2.1_vae.safetensors', wan_vae)):
        s, e = fn()
        info = s.write(os.path.join(d, 'shared', 'wan', folder, name))
        info.update(e)
        exp['../shared/wan/' + folder + '/' + name] = info
    with open(os.path.join(d, 'extra_model_paths.yaml'), 'w') as f:
        f.write('# the Wan models are shared with another install\n'
                'wan:\n'
                '    base_path: shared/wan\n'
                '    diffusion_models: diffusion_models\n'
                '    text_encoders: |\n'
                '        text_encoders\n'
                '        clip\n'
                '    vae: vae/\n')
    exp['unet/flux1-dev-Q4_K.gguf'] = gguf(os.path.join(m, 'unet', 'flux1-dev-Q4_K.gguf'), 'Q4_K')
    exp['unet/flux1-dev-Q8_0.gguf'] = gguf(os.path.join(m, 'unet', 'flux1-dev-Q8_0.gguf'), 'Q8_0')
    exp['upscale_models/4x_NMKD-Siax.pth'] = torch_zip(os.path.join(m, 'upscale_models', '4x_NMKD-Siax.pth'))
    with open(os.path.join(d, 'expected.json'), 'w') as f:
        json.dump(exp, f, indent=1)
    hostile(os.path.join(d, 'hostile'))


def raw(path, data, size=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)
        if size is not None:
            f.truncate(size)


def st_bytes(obj_or_text, data=0):
    j = obj_or_text if isinstance(obj_or_text, bytes) else json.dumps(obj_or_text).encode()
    return struct.pack('<Q', len(j)) + j + b'\0' * data


def many_tensors(size):
    """A valid safetensors file whose header is about `size` bytes of small tensors."""
    parts, off, n, total = [], 0, 0, 2
    while total < size:
        e = '"model.layers.%d.attn.to_q.weight":{"dtype":"F16","shape":[4],"data_offsets":[%d,%d]}' % (
            n, off, off + 8)
        parts.append(e)
        total += len(e) + 1
        off += 8
        n += 1
    j = ('{' + ','.join(parts) + '}').encode()
    j += b' ' * (-len(j) % 8)
    return struct.pack('<Q', len(j)) + j + b'\0' * off


def hostile(h):
    """name -> the words its one-line error must carry."""
    cases = {}

    def case(name, data, words, size=None):
        raw(os.path.join(h, name), data, size)
        cases[name] = words

    t = {'a': {'dtype': 'F16', 'shape': [4], 'data_offsets': [0, 8]}}
    case('truncated.safetensors', st_bytes(t)[:20], 'runs past the end')
    case('len2p63.safetensors', struct.pack('<Q', 1 << 63) + b'{}', 'over the 16777216-byte limit')
    # a well-formed header past any real model's (a few MB): refused before it is read
    case('header17m.safetensors', many_tensors(17 << 20), 'over the 16777216-byte limit')
    case('past_eof.safetensors', st_bytes({'a': {'dtype': 'F16', 'shape': [4], 'data_offsets': [0, 8]}}, 4),
         'past the end of the file')
    case('overlap.safetensors', st_bytes({'a': {'dtype': 'F16', 'shape': [4], 'data_offsets': [0, 8]},
                                         'b': {'dtype': 'F16', 'shape': [4], 'data_offsets': [4, 12]}}, 12),
         'overlap')
    case('mismatch.safetensors', st_bytes({'a': {'dtype': 'F32', 'shape': [4], 'data_offsets': [0, 8]}}, 8),
         'is not the 8 bytes')
    deep = b'{"__metadata__":' + b'[' * 5000 + b']' * 5000 + b'}'
    case('deep.safetensors', st_bytes(deep), 'nest')
    case('huge_string.safetensors', st_bytes({'__metadata__': {'k': 'x' * (4 << 20)}, 'a': 5}),
         'not an object')
    case('bad_utf8.safetensors', st_bytes(b'{"a\xff\xfe":{"dtype":"F16","shape":[1],"data_offsets":[0,2]}}', 2),
         'UTF-8')
    case('array.safetensors', st_bytes(b'[1,2,3]'), 'not a JSON object')
    case('string.safetensors', st_bytes(b'"abc"  '), 'not a JSON object')
    case('short.safetensors', b'\x05\0', 'shorter than 8 bytes')
    case('neg_offsets.safetensors', st_bytes({'a': {'dtype': 'F16', 'shape': [4], 'data_offsets': [8, 0]}}, 8),
         'begin <= end')
    case('shape_overflow.safetensors', st_bytes({'a': {'dtype': 'F16', 'shape': [1 << 40, 1 << 40], 'data_offsets': [0, 8]}}, 8),
         'is not the 8 bytes')
    # GGUF
    g = b'GGUF' + struct.pack('<IQQ', 3, 1, 1) + gstr('general.architecture') + struct.pack('<I', 8) + gstr('flux')
    g += gstr('x.weight') + struct.pack('<IQQ', 2, 256, 4) + struct.pack('<IQ', 12, 0)
    pad = g + b'\0' * (-len(g) % 32)
    case('truncated.gguf', g[:-6], 'cut short')
    case('past_eof.gguf', pad + b'\0' * 100, 'past the end of the file')
    case('counts.gguf', b'GGUF' + struct.pack('<IQQ', 3, 1 << 60, 1 << 60), 'more than the file can hold')
    case('version.gguf', b'GGUF' + struct.pack('<IQQ', 9, 0, 0), 'version 9')
    case('bad_block.gguf', (b'GGUF' + struct.pack('<IQQ', 3, 1, 0) + gstr('x') + struct.pack('<IQ', 1, 100) +
                            struct.pack('<IQ', 12, 0)) + b'\0' * 64, 'whole number of Q4_K blocks')
    case('strlen.gguf', b'GGUF' + struct.pack('<IQQ', 3, 0, 1) + struct.pack('<Q', 1 << 62) + b'abc', 'cut short')
    # zip
    case('truncated.ckpt', b'PK\x03\x04' + b'\0' * 100, 'end record')
    with open(os.path.join(h, 'expected.json'), 'w') as f:
        json.dump(cases, f, indent=1)


if __name__ == '__main__':
    main(sys.argv[1])
