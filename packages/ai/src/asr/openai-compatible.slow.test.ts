import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '../wer';
import { createSpeechEngine } from './create';
import { FasterWhisperEngine, fasterWhisperAvailability } from './faster-whisper';
import { WHISPER_LANGUAGES } from './languages';
import { OpenAICompatibleEngine } from './openai-compatible';
import {
  expectValidWordTimings,
  hasFestival,
  synthesizeSpeech,
  transcriptText,
} from '../../test/support/speech';
import type { Transcript } from './types';

const availability = fasterWhisperAvailability();
if (!availability.available)
  console.warn(`[asr tests] skipping OpenAI-compatible tests: ${availability.reason}`);
if (!hasFestival)
  console.warn(
    '[asr tests] skipping OpenAI-compatible tests: festival (text2wave) is not installed',
  );

const API_KEY = 'test-key';

/**
 * A real OpenAI-compatible transcription server on 127.0.0.1: it parses the multipart upload and
 * transcribes it with faster-whisper, answering in OpenAI's verbose_json shape (seconds, language
 * as an English name, words at the top level apart from the segments).
 */
async function startTranscriptionServer(workDir: string) {
  const engine = new FasterWhisperEngine();
  const requests: { fields: Record<string, string[]>; fileName: string }[] = [];
  const server: Server = createServer((req, res) => {
    handle(req)
      .then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      });
  });

  async function handle(req: IncomingMessage): Promise<[number, unknown]> {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions')
      return [404, { error: { message: 'not found' } }];
    if (req.headers.authorization !== `Bearer ${API_KEY}`)
      return [401, { error: { message: 'invalid api key' } }];
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = await new Request('http://localhost/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: Buffer.concat(chunks),
    }).formData();
    const file = form.get('file');
    if (!(file instanceof File)) return [400, { error: { message: 'file is required' } }];
    const fields: Record<string, string[]> = {};
    for (const [key, value] of form.entries())
      if (typeof value === 'string') (fields[key] ??= []).push(value);
    requests.push({ fields, fileName: file.name });

    const upload = join(workDir, `upload-${requests.length}-${file.name.replace(/[^\w.-]/g, '_')}`);
    await writeFile(upload, Buffer.from(await file.arrayBuffer()));
    const transcript = await engine.transcribe(upload, { language: fields.language?.[0] });
    return [200, toVerboseJson(transcript)];
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((r) => server.close(r)),
  };
}

function toVerboseJson(transcript: Transcript) {
  const seconds = (ms: number) => ms / 1000;
  return {
    task: 'transcribe',
    language: WHISPER_LANGUAGES[transcript.language] ?? transcript.language,
    duration: seconds(transcript.durationMs),
    text: transcript.segments.map((s) => s.text).join(' '),
    segments: transcript.segments.map((s, id) => ({
      id,
      start: seconds(s.startMs),
      end: seconds(s.endMs),
      text: ` ${s.text}`,
    })),
    words: transcript.segments.flatMap((s) =>
      s.words.map((w) => ({ word: w.text, start: seconds(w.startMs), end: seconds(w.endMs) })),
    ),
  };
}

describe.skipIf(!availability.available || !hasFestival)(
  'OpenAICompatibleEngine against a local server',
  () => {
    let workDir: string;
    let server: Awaited<ReturnType<typeof startTranscriptionServer>>;
    beforeAll(async () => {
      workDir = await mkdtemp(join(tmpdir(), 'moments-asr-openai-'));
      server = await startTranscriptionServer(workDir);
    });
    afterAll(async () => {
      await server?.close();
      await rm(workDir, { recursive: true, force: true });
    });

    const spoken = 'Good morning everyone. Today we will look at three short videos about cooking.';

    it('uploads the audio, asks for word timestamps, and maps the answer to a transcript', async () => {
      const speech = await synthesizeSpeech(spoken, workDir);
      const engine = createSpeechEngine({
        ASR_BASE_URL: server.baseUrl,
        ASR_API_KEY: API_KEY,
        ASR_MODEL: 'whisper-base',
      });
      expect(engine.name).toBe('openai-compatible:whisper-base');

      const transcript = await engine.transcribe(speech, { language: 'en' });
      const request = server.requests.at(-1)!;
      expect(request.fileName).toBe('speech.wav');
      expect(request.fields).toMatchObject({
        model: ['whisper-base'],
        response_format: ['verbose_json'],
        'timestamp_granularities[]': ['word', 'segment'],
        language: ['en'],
      });

      expect(transcript.language).toBe('en'); // the server said "english"
      expect(wordErrorRate(spoken, transcriptText(transcript))).toBeLessThanOrEqual(0.15);
      expect(
        wordErrorRate(
          spoken,
          transcript.segments.flatMap((s) => s.words.map((w) => w.text)).join(' '),
        ),
      ).toBeLessThanOrEqual(0.15);
      expectValidWordTimings(transcript);
    }, 180_000);

    it("reports a refused API key with the server's answer", async () => {
      const speech = await synthesizeSpeech('Hello there.', workDir, 'refused');
      const engine = new OpenAICompatibleEngine({ baseUrl: server.baseUrl, apiKey: 'wrong-key' });
      const error = await engine.transcribe(speech).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'engine_failed' });
      expect((error as Error).message).toMatch(/401.*invalid api key/);
    });
  },
);

describe('createSpeechEngine', () => {
  it('uses local faster-whisper unless an endpoint is configured', () => {
    // The engines come wrapped (whole written words), so they are told apart by name.
    expect(createSpeechEngine({}).name).toMatch(/^faster-whisper:/);
    expect(createSpeechEngine({ ASR_MODEL_DIR: '/models/whisper-large-v3' }).name).toBe(
      'faster-whisper:whisper-large-v3',
    );
    expect(createSpeechEngine({ ASR_BASE_URL: 'http://127.0.0.1:9/v1' }).name).toMatch(
      /^openai-compatible:/,
    );
  });
});
