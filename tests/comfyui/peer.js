// A local peer that speaks ComfyUI's protocol as its server.py does, for headroom's
// `watch --comfyui` / `--protect` tests. Routes (also under /api): GET /system_stats,
// GET /queue, GET /history, GET /history/{id}, POST /prompt, POST /free (a JSON body, as
// server.py's `await request.json()` needs), POST /interrupt, GET /ws?clientId=.
// Who gets what, as in server.py / execution.py: every socket gets `status` broadcasts
// ({"status":{"exec_info":{"queue_remaining":N}},"sid":...} on connect, without sid after);
// execution messages (execution_start, execution_cached, executing, progress, executed,
// progress_state, execution_success / _error / _interrupted) and binary preview frames go to
// the prompt's client_id only, to every socket when the prompt has none.
//
// It replays a realistic run: a prompt of five nodes (checkpoint loader, two text encoders,
// sampler, VAE decode, save), each holding real memory in this process while it runs (the
// decode holds 160 MB until the prompt ends), with ComfyUI's console lines on stdout.
//
//   node peer.js --scenario browser|api|hog [--port N]
//   browser: a browser tab (a real websocket client in this process, its own client id)
//            submits the prompt and receives its node messages; headroom watches from the side.
//   api:     the prompt is posted without a client id (a script): its messages reach everyone.
//   hog:     the sampler grows memory until interrupted; /free only sets flags (ComfyUI frees
//            between prompts), /interrupt stops it. Exit 0 only when /free came with the right
//            body and then /interrupt. --free-status N: /free answers HTTP N (a failure).
// The prompt starts 1 s after a websocket client other than the tab connects (headroom).
// Prints "PORT n" first; exits after the prompt (and --linger ms).
//
//   node peer.js --scenario hostile --attack NAME [--ttl S] [--base DIR]
//   a server that lies or stalls, on 127.0.0.1 only, gone after --ttl seconds (default 30):
//   history   GET /history lists a prompt whose workflow would need hundreds of terabytes
//             (a 16384 x 16384 latent, batch 4096) under a prompt id with a newline and a
//             bidi override in it; /system_stats names --base as ComfyUI's folder
//   ping-flood, text-flood, cont-flood
//             the websocket, once open, is flooded as fast as it drains: pings, small text
//             frames, or one text message of endless empty continuation frames
//   masked    the websocket sends its status message masked (only clients mask)
//   slow-queue  a prompt of 20 nodes whose executing messages arrive every 100 ms while
//             GET /queue and GET /history take 1.5 s each
//   never     every HTTP request is read and never answered
//   huge      GET /queue answers 30 MB (a prompt with 30 MB of text in it)
'use strict';
const http = require('http');
const crypto = require('crypto');
const { WebSocketServer, WebSocket } = require('ws');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const scenario = opt('--scenario', 'browser');
const port = Number(opt('--port', '0'));
const linger = Number(opt('--linger', '1500'));
const log = (s) => process.stdout.write(s + '\n');
const fail = (s) => { process.stderr.write('peer: FAIL: ' + s + '\n'); process.exitCode = 3; };

const sockets = new Map();          // sid -> ws
const history = {};
let queueRunning = [];               // [number, prompt_id, prompt, extra_data, outputs]
let queuePending = [];
let number = 0;
let currentClient = null;            // server.client_id
let interrupted = false;
let flags = {};
const held = [];                     // memory the running prompt holds
const seen = { free: null, interrupt: 0, freeBeforeInterrupt: false };
let headroomSid = null;
let started = false;

const workflow = {
  '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: 'a lighthouse at dusk', clip: ['4', 1] } },
  '7': { class_type: 'CLIPTextEncode', inputs: { text: 'blurry', clip: ['4', 1] } },
  '3': { class_type: 'KSampler', inputs: { model: ['4', 0], positive: ['6', 0], negative: ['7', 0], seed: 1, steps: 4 } },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
  '9': { class_type: 'SaveImage', inputs: { images: ['8', 0], filename_prefix: 'ComfyUI' } },
};
const order = ['4', '6', '7', '3', '8', '9'];

function hold(mb) {
  const b = Buffer.allocUnsafe(mb << 20);
  b.fill(7);                         // touch every page: resident
  held.push(b);
}

function queueInfo() {
  return { exec_info: { queue_remaining: queueRunning.length + queuePending.length } };
}

function sendJson(event, data, sid) {
  const msg = JSON.stringify({ type: event, data });
  if (sid === null || sid === undefined) {
    for (const ws of sockets.values()) ws.send(msg);
  } else if (sockets.has(sid)) {
    sockets.get(sid).send(msg);
  }
}

function sendPreview(sid) {
  // BinaryEventTypes.PREVIEW_IMAGE = 1, then the image type (1 = JPEG) and its bytes
  const b = Buffer.alloc(8 + 64);
  b.writeUInt32BE(1, 0);
  b.writeUInt32BE(1, 4);
  b.write('\xff\xd8\xff\xe0', 8, 'latin1');
  if (sid === null) for (const ws of sockets.values()) ws.send(b);
  else if (sockets.has(sid)) sockets.get(sid).send(b);
}

function queueUpdated() { sendJson('status', { status: queueInfo() }); }

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function execute(item) {
  const [, promptId, prompt, extra] = item;
  currentClient = extra.client_id || null;
  const to = currentClient;
  const t0 = Date.now();
  const messages = [];
  const add = (ev, data, broadcast) => {
    messages.push([ev, data]);
    if (to !== null || broadcast) sendJson(ev, data, to);
  };
  add('execution_start', { prompt_id: promptId, timestamp: Date.now() }, false);
  add('execution_cached', { nodes: [], prompt_id: promptId, timestamp: Date.now() }, false);
  let status = 'success';
  let errorInfo = null;
  for (const node of order) {
    sendJson('executing', { node, display_node: node, prompt_id: promptId }, to);
    sendJson('progress_state', { prompt_id: promptId, nodes: { [node]: { state: 'running' } } }, to);
    await sleep(100);                // the messages leave before the node's work starts
    const cls = prompt[node].class_type;
    if (cls === 'CheckpointLoaderSimple') {
      log('Requested to load SDXLClipModel');
      await sleep(150);              // the line is read before the load starts
      hold(40);
      await sleep(300);
      log('loaded completely 9.5367431640625e+25 1560.802734375 True');
    } else if (cls === 'KSampler') {
      log('Requested to load SDXL');
      await sleep(150);
      hold(20);
      log('loaded partially 5869.6 5869.6 0');
      if (scenario === 'hog') {
        // grow until interrupted (a sampler that does not fit), 5 MB every 100 ms
        for (let i = 0; i < 400 && !interrupted; i++) {
          hold(5);
          await sleep(100);
          if (i % 10 === 0) sendJson('progress', { value: i, max: 400, prompt_id: promptId, node }, to);
        }
      } else {
        for (let s = 1; s <= 4; s++) {
          await sleep(150);
          sendJson('progress', { value: s, max: 4, prompt_id: promptId, node }, to);
          sendPreview(to);
        }
      }
    } else if (cls === 'VAEDecode') {
      hold(160);
      await sleep(700);
    } else {
      await sleep(400);
    }
    if (interrupted) {
      status = 'error';
      errorInfo = { prompt_id: promptId, node_id: node, node_type: cls, executed: [], timestamp: Date.now() };
      log('Processing interrupted');
      add('execution_interrupted', errorInfo, true);
      break;
    }
    if (cls === 'SaveImage') {
      sendJson('executed', { node, display_node: node, output: { images: [{ filename: 'ComfyUI_00001_.png', subfolder: '', type: 'output' }] }, prompt_id: promptId }, to);
    }
  }
  if (status === 'success') add('execution_success', { prompt_id: promptId, timestamp: Date.now() }, false);
  sendJson('executing', { node: null, prompt_id: promptId }, to);
  history[promptId] = {
    prompt: item, outputs: {},
    status: { status_str: status, completed: status === 'success', messages },
    meta: {},
  };
  log(`Prompt executed in ${((Date.now() - t0) / 1000).toFixed(2)} seconds`);
  held.length = 0;
  if (global.gc) global.gc();
  currentClient = null;
}

async function worker() {
  while (queuePending.length) {
    const item = queuePending.shift();
    queueRunning = [item];
    queueUpdated();
    interrupted = false;
    await execute(item);
    queueRunning = [];
    queueUpdated();
    if (flags.unload_models || flags.free_memory) log('freeing memory between prompts: ' + JSON.stringify(flags));
    flags = {};
  }
}

function postPrompt(body) {
  log('got prompt');
  const extra = body.extra_data || {};
  if ('client_id' in body) extra.client_id = body.client_id;
  const promptId = crypto.randomUUID();
  queuePending.push([number++, promptId, body.prompt, extra, ['9']]);
  queueUpdated();
  if (queueRunning.length === 0) worker().then(finish);
  return { prompt_id: promptId, number: number - 1, node_errors: {} };
}

function readJson(req) {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      try { resolve({ ok: true, value: JSON.parse(data) }); } catch (e) { resolve({ ok: false, text: data }); }
    });
  });
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  let path = url.pathname;
  if (path.startsWith('/api/')) path = path.slice(4);
  const json = (obj, code = 200) => {
    res.writeHead(code, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(obj));
  };
  if (req.method === 'GET' && path === '/system_stats') {
    return json({
      system: { os: 'posix', ram_total: 68719476736, ram_free: 40802189312, comfyui_version: '0.3.40',
        python_version: '3.12.3', pytorch_version: '2.7.0+cu128', embedded_python: false, argv: ['main.py'] },
      devices: [{ name: 'cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync', type: 'cuda', index: 0,
        vram_total: 25757220864, vram_free: 24101650432, torch_vram_total: 0, torch_vram_free: 0 }],
    });
  }
  if (req.method === 'GET' && path === '/queue') return json({ queue_running: queueRunning, queue_pending: queuePending });
  if (req.method === 'GET' && path === '/history') return json(history);
  if (req.method === 'GET' && path.startsWith('/history/')) {
    const id = path.slice(9);
    return json(history[id] ? { [id]: history[id] } : {});
  }
  if (req.method === 'GET' && path === '/prompt') return json(queueInfo());
  if (req.method === 'POST' && path === '/prompt') {
    const b = await readJson(req);
    if (!b.ok) { res.writeHead(500); return res.end('500 Internal Server Error'); }
    return json(postPrompt(b.value));
  }
  if (req.method === 'POST' && path === '/free') {
    const b = await readJson(req);
    if (!b.ok) {
      // aiohttp's request.json() raises on a body that is not JSON: a 500
      fail('POST /free without a JSON body: ' + JSON.stringify(b.text));
      res.writeHead(500); return res.end('500 Internal Server Error');
    }
    log('POST /free ' + JSON.stringify(b.value));
    const freeStatus = Number(opt('--free-status', '200'));
    if (b.value.unload_models === true && b.value.free_memory === true && seen.interrupt === 0) seen.freeBeforeInterrupt = true;
    seen.free = b.value;
    if (b.value.unload_models) flags.unload_models = true;
    if (b.value.free_memory) flags.free_memory = true;
    res.writeHead(freeStatus); return res.end();
  }
  if (req.method === 'POST' && path === '/interrupt') {
    await readJson(req);
    log('POST /interrupt');
    seen.interrupt++;
    interrupted = true;
    res.writeHead(200); return res.end();
  }
  res.writeHead(404); res.end('404: Not Found');
});

const wss = new WebSocketServer({ noServer: true });
server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname !== '/ws' && url.pathname !== '/api/ws') { socket.destroy(); return; }
  wss.handleUpgrade(req, socket, head, (ws) => {
    let sid = url.searchParams.get('clientId') || '';
    if (sid) sockets.delete(sid); else sid = crypto.randomUUID().replace(/-/g, '');
    if (sid === 'browser-tab-1' && req.headers['user-agent'] === 'headroom') fail('headroom took the browser tab\'s client id');
    sockets.set(sid, ws);
    ws.send(JSON.stringify({ type: 'status', data: { status: queueInfo(), sid } }));
    ws.on('close', () => { if (sockets.get(sid) === ws) sockets.delete(sid); });
    if (sid !== 'browser-tab-1' && !started) {
      headroomSid = sid;
      started = true;
      setTimeout(start, 1000);
    }
  });
});

let tab = null;
const tabSaw = { executing: 0, binary: 0 };
function start() {
  if (scenario === 'api') {
    postPrompt({ prompt: workflow });
    return;
  }
  tab = new WebSocket(`ws://127.0.0.1:${server.address().port}/ws?clientId=browser-tab-1`);
  tab.on('message', (data, isBinary) => {
    if (isBinary) { tabSaw.binary++; return; }
    const m = JSON.parse(data.toString());
    if (m.type === 'executing') tabSaw.executing++;
  });
  tab.on('open', () => {
    postPrompt({ prompt: workflow, client_id: 'browser-tab-1',
      extra_data: { extra_pnginfo: { workflow: { nodes: Object.keys(workflow).map((id) => ({ id: Number(id) })) } } } });
  });
}

function finish() {
  if (scenario === 'browser' && tabSaw.executing < order.length) fail(`the tab saw ${tabSaw.executing} executing messages`);
  if (scenario === 'hog') {
    if (!seen.free) fail('no POST /free');
    else if (!seen.freeBeforeInterrupt) fail('POST /free without {"unload_models":true,"free_memory":true} before /interrupt');
    if (seen.interrupt === 0) fail('no POST /interrupt');
  }
  log(`peer: done (${scenario})`);
  setTimeout(() => {
    if (tab) tab.close();
    for (const ws of sockets.values()) ws.terminate();
    server.close();
    process.exit();
  }, linger);
}

if (scenario === 'hostile') hostile();
else server.listen(port, '127.0.0.1', () => log('PORT ' + server.address().port));

function hostile() {
  const attack = opt('--attack', 'history');
  const ttl = Number(opt('--ttl', '30'));
  const base = opt('--base', '/nonexistent');
  const stats = { system: { os: 'posix', ram_total: 68719476736, ram_free: 40802189312, comfyui_version: '0.3.40',
    python_version: '3.12.3', pytorch_version: '2.7.0+cu128', embedded_python: false, argv: [base + '/main.py'] },
  devices: [{ name: 'cuda:0 NVIDIA GeForce RTX 4090', type: 'cuda', index: 0, vram_total: 25757220864, vram_free: 24101650432 }] };
  const bigWorkflow = {
    '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
    '5': { class_type: 'EmptyLatentImage', inputs: { width: 16384, height: 16384, batch_size: 4096 } },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: 'x', clip: ['4', 1] } },
    '3': { class_type: 'KSampler', inputs: { model: ['4', 0], positive: ['6', 0], negative: ['6', 0], latent_image: ['5', 0], seed: 1, steps: 4 } },
    '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
    '9': { class_type: 'SaveImage', inputs: { images: ['8', 0] } },
  };
  const evilId = 'p1\nheadroom: FORGED line \u202eevil';
  const slowIds = Array.from({ length: 20 }, (_, i) => String(100 + i));
  const slowWorkflow = Object.fromEntries(slowIds.map((id) => [id, { class_type: 'PreviewAny', inputs: {} }]));
  const sockets = new Set();
  // made once, so that it is answered at once
  const hugeQueue = attack === 'huge' ? Buffer.from(`{"queue_running":[[0,"huge",{"1":{"class_type":"CLIPTextEncode","inputs":{"text":"${'x'.repeat(30 << 20)}"}}},{},[]]],"queue_pending":[]}`) : null;
  const srv = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname.replace(/^\/api\//, '/');
    const json = (obj, delay = 0) => setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(typeof obj === 'string' || Buffer.isBuffer(obj) ? obj : JSON.stringify(obj));
    }, delay);
    if (attack === 'never') return;            // read, never answered
    if (path === '/system_stats') return json(stats);
    if (attack === 'history' && path === '/history')
      return json({ [evilId]: { prompt: [0, evilId, bigWorkflow, {}, ['9']], outputs: {}, status: { status_str: 'success', completed: true } } });
    if (attack === 'huge' && path === '/queue') return json(hugeQueue);
    if (attack === 'slow-queue' && path === '/queue')
      return json({ queue_running: [[0, 'other', slowWorkflow, {}, []]], queue_pending: [] }, 1500);
    if (attack === 'slow-queue' && path.startsWith('/history')) return json({}, 1500);
    if (path === '/queue') return json({ queue_running: [], queue_pending: [] });
    if (path.startsWith('/history')) return json({});
    res.writeHead(404); res.end();
  });
  srv.on('connection', (sock) => { sockets.add(sock); sock.on('close', () => sockets.delete(sock)); });
  // the websocket by hand: the attacks need frames the ws package would never send
  srv.on('upgrade', (req, sock) => {
    const key = req.headers['sec-websocket-key'] || '';
    const accept = crypto.createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
    sock.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Accept: ${accept}\r\n\r\n`);
    sock.on('error', () => {});
    sock.on('data', () => {});               // pongs and the like: read and dropped
    const frame = (op, payload, fin = true, mask = false) => {
      const p = Buffer.from(payload);
      const head = [(fin ? 0x80 : 0) | op];
      if (p.length < 126) head.push((mask ? 0x80 : 0) | p.length);
      else { head.push((mask ? 0x80 : 0) | 126, p.length >> 8, p.length & 255); }
      if (!mask) return Buffer.concat([Buffer.from(head), p]);
      const k = crypto.randomBytes(4);
      const m = Buffer.from(p.map((b, i) => b ^ k[i & 3]));
      return Buffer.concat([Buffer.from(head), k, m]);
    };
    const status = JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: 0 } }, sid: 'hostile' } });
    if (attack === 'masked') { sock.write(frame(1, status, true, true)); return; }
    sock.write(frame(1, status));
    if (attack === 'slow-queue') {
      let i = 0;
      const t = setInterval(() => {
        if (i < slowIds.length) sock.write(frame(1, JSON.stringify({ type: 'executing', data: { node: slowIds[i], prompt_id: 'p' + i } })));
        else if (i === slowIds.length) sock.write(frame(1, JSON.stringify({ type: 'execution_success', data: { prompt_id: 'p' + (i - 1) } })));
        else clearInterval(t);
        i++;
      }, 100);
      return;
    }
    let unit;
    if (attack === 'ping-flood') unit = frame(9, '');
    else if (attack === 'text-flood') unit = frame(1, '{"type":"crystools.monitor","data":{}}');
    else if (attack === 'cont-flood') { sock.write(frame(1, '', false)); unit = frame(0, '', false); }
    else return;
    const burst = Buffer.concat(Array(4096).fill(unit));
    const pump = () => { while (!sock.destroyed && sock.write(burst)); };
    sock.on('drain', pump);
    pump();
  });
  srv.listen(port, '127.0.0.1', () => log('PORT ' + srv.address().port));
  setTimeout(() => { for (const s of sockets) s.destroy(); srv.close(); process.exit(0); }, ttl * 1000).unref();
  setTimeout(() => process.exit(0), ttl * 1000);
}
