"""
The CUDA transcription path, measured on a GPU machine: drives the product's own
packages/ai/src/asr/whisper-server.py as ASR_DEVICE=cuda runs it (float16; batched 16, beam 5),
then the same server sequential, on ten minutes of real recordings joined (jfk.flac, the five
LibriVox passages of Debian's pocketsphinx-testdata, the English half of multilingual-en-de.mp3,
in shuffled rounds), with the WER of each clip against its reference text and the German half
detected and heard as German.

Usage: python bench/gpu/cuda-transcription.py CLIPS_DIR MODEL_DIR
  CLIPS_DIR holds whisper-server.py, `transcription` (pocketsphinx-testdata's LibriVox reference)
  and each recording as 16 kHz mono s16le `.raw`, made with
  `ffmpeg -i IN -ac 1 -ar 16000 -f s16le NAME.raw` (jfk, en-de, and each LibriVox file by name).
  MODEL_DIR is a CTranslate2 Whisper model (.tools/models/whisper-base).
  DEV=cpu CT=int8 LONG=20 runs it on a CPU for a dry run.
Results of a run on an H100 are in the README ("GPU paths").
"""
import json, os, re, subprocess, sys, time, wave
import numpy as np
A, MODEL, PY = sys.argv[1], sys.argv[2], sys.executable
SR = 16000
def load(name):
    return np.fromfile(os.path.join(A, name + '.raw'), dtype='<i2')
def write_wav(path, pcm):
    with wave.open(path, 'wb') as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(SR); w.writeframes(pcm.tobytes())
def norm(t):
    return re.sub(r"[^a-z0-9' ]", ' ', t.lower().replace('-', ' ')).split()
def wer(ref, hyp):
    r, h = norm(ref), norm(hyp); d = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(h) + 1):
            cur = d[j]; d[j] = min(d[j] + 1, d[j - 1] + 1, prev + (r[i - 1] != h[j - 1])); prev = cur
    return d[len(h)], len(r)
refs = {'jfk': 'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.'}
for line in open(os.path.join(A, 'transcription')):
    m = re.match(r'<s> (.*) </s> \((.*)\)', line.strip())
    if m: refs[m.group(2)] = m.group(1)
os.makedirs('/tmp/wav', exist_ok=True)
for n in refs: write_wav(f'/tmp/wav/{n}.wav', load(n))
ende = load('en-de'); write_wav('/tmp/wav/german.wav', ende[30 * SR:])
clips = [load(n) for n in refs] + [ende[:30 * SR]]
gap = np.zeros(int(0.6 * SR), dtype='<i2'); rng = np.random.default_rng(7); parts = []; total = 0
LONG = int(os.environ.get('LONG', '600'))
while total < LONG * SR:
    for i in rng.permutation(len(clips)): parts += [clips[i], gap]; total += len(clips[i]) + len(gap)
write_wav('/tmp/wav/long.wav', np.concatenate(parts)[:LONG * SR])
t0 = time.time()
p = subprocess.Popen([PY, os.path.join(A, 'whisper-server.py'), '--device', os.environ.get('DEV', 'cuda'), '--compute-type', os.environ.get('CT', 'float16')],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def ask(req):
    p.stdin.write(json.dumps(req) + '\n'); p.stdin.flush()
    while True:
        msg = json.loads(p.stdout.readline())
        if msg.get('ready') or 'progress' in msg: continue
        return msg
ask({'id': 0, 'op': 'ping'}); out = {'server_ready_s': round(time.time() - t0, 2)}
errs = words = 0; i = 1
for n, ref in refs.items():
    i += 1
    r = ask({'id': i, 'op': 'transcribe', 'audio': f'/tmp/wav/{n}.wav', 'model': MODEL, 'language': None, 'batch_size': 16, 'beam_size': 5})
    text = ' '.join(s['text'] for s in r['segments']); e, k = wer(ref, text); errs += e; words += k
out['wer_clips'] = round(errs / words, 4)
t = time.time(); d = ask({'id': 90, 'op': 'detect', 'audio': '/tmp/wav/german.wav', 'model': MODEL})
out['detect_german'] = {'language': d.get('language'), 's': round(time.time() - t, 2)}
r = ask({'id': 91, 'op': 'transcribe', 'audio': '/tmp/wav/german.wav', 'model': MODEL, 'language': d.get('language'), 'batch_size': 16, 'beam_size': 5})
out['german_text'] = ' '.join(s['text'] for s in r['segments'])[:100]
for label, bs, beam in [('batched16 beam5 (ASR_DEVICE=cuda defaults)', 16, 5), ('sequential beam5', 0, 5)]:
    t = time.time()
    r = ask({'id': 100 + bs, 'op': 'transcribe', 'audio': '/tmp/wav/long.wav', 'model': MODEL, 'language': 'en', 'batch_size': bs, 'beam_size': beam})
    el = time.time() - t
    out[label] = {'audio_s': LONG, 'wall_s': round(el, 2), 'x_real_time': round(LONG / el, 1), 'words': sum(len(s['words']) for s in r['segments']), 'ok': r['ok']}
p.stdin.close(); p.wait()
print(json.dumps(out, indent=1))
