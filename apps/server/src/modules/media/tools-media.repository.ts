import { decodeLogoImage, type DecodeLogoOptions } from '@moments/media/logo';
import { stat } from 'node:fs/promises';
import { frameLoudness } from '@moments/ai/asr';
import { runFfmpeg } from '@moments/media/ffmpeg';
import {
  downloadVideo,
  fetchVideoMetadata,
  type DownloadOptions,
  type IngestOptions,
} from '@moments/media/ingest';
import {
  extractAudioForAsr,
  extractAudioSpan,
  measureMedia,
  probeMedia,
  speechAudioStream,
  validateUploadedVideo,
  type ValidateOptions,
  type ExtractOptions,
} from '@moments/media/probe';
import { analyzeSubjects, type AnalyzeOptions } from '@moments/media/reframe';
import {
  drawCover,
  imageToThumbnail,
  pickThumbnail,
  type PickThumbnailOptions,
} from '@moments/media/thumbnail';
import { detectSilences, measureLoudness, planClipFraming, renderClip } from './clip-render.js';
import type {
  FramingRequest,
  MediaRepository,
  PlanFramingToolOptions,
  LoudnessMeasure,
  RenderClipInput,
  Span,
  ToolOptions,
} from './media.repository.js';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Sources whose speech stream is remembered (a task and its exports read the same file often). */
const SPEECH_STREAMS_KEPT = 64;

/**
 * The media repository over the real tools (@moments/media, each run through @moments/process).
 * Everything that reads a source's sound reads the stream with its speech (speechAudioStream),
 * so the words heard, who speaks in the framing, the exported clip and a shared cut agree.
 */
export class ToolsMediaRepository implements MediaRepository {
  private readonly speechStreams = new Map<string, { version: string; stream: Promise<number> }>();

  /** The speech stream of `source`, decided once per version of the file in this process. */
  private async speechStream(source: string, signal?: AbortSignal): Promise<number> {
    // No file: the tool that reads it says so, as it always did.
    const file = await stat(source).catch(() => null);
    if (!file) return 0;
    const version = `${file.size}:${file.mtimeMs}`;
    const known = this.speechStreams.get(source);
    if (known?.version === version) return known.stream;
    const stream = speechAudioStream(source, { signal });
    this.speechStreams.delete(source);
    this.speechStreams.set(source, { version, stream });
    if (this.speechStreams.size > SPEECH_STREAMS_KEPT) {
      this.speechStreams.delete(this.speechStreams.keys().next().value!);
    }
    // A failed or stopped decision is not remembered: the next reader decides again.
    stream.catch(() => {
      if (this.speechStreams.get(source)?.stream === stream) this.speechStreams.delete(source);
    });
    return stream;
  }

  probe(file: string, options?: { signal?: AbortSignal }) {
    return probeMedia(file, options);
  }

  measure(file: string, options?: { signal?: AbortSignal }) {
    return measureMedia(file, options);
  }

  validateUpload(file: string, originalName: string, options?: ValidateOptions) {
    return validateUploadedVideo(file, originalName, options);
  }

  fetchMetadata(link: string, options?: IngestOptions) {
    return fetchVideoMetadata(link, options);
  }

  download(link: string, outDir: string, options?: DownloadOptions) {
    return downloadVideo(link, outDir, options);
  }

  async extractAudio(source: string, outWav: string, options: ExtractOptions = {}) {
    const audioStream = await this.speechStream(source, options.signal);
    return extractAudioForAsr(source, outWav, { ...options, audioStream });
  }

  extractAudioSpan(wav: string, outWav: string, span: Span, options?: ExtractOptions) {
    return extractAudioSpan(wav, outWav, span, options);
  }

  async cutSpan(source: string, outFile: string, span: Span, options: ToolOptions = {}) {
    const audioStream = await this.speechStream(source, options.signal);
    return runFfmpeg(
      [
        ...['-ss', seconds(span.startMs), '-i', source, '-t', seconds(span.endMs - span.startMs)],
        ...['-map', '0:v:0?', '-map', `0:a:${audioStream}?`],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', outFile],
      ],
      options,
    );
  }

  thumbnail(source: string, outJpg: string, options: PickThumbnailOptions) {
    return pickThumbnail(source, outJpg, options);
  }

  imageThumbnail(image: string, outJpg: string, options?: { signal?: AbortSignal }) {
    return imageToThumbnail(image, outJpg, options);
  }

  cover(image: string, outJpg: string, options?: { title?: string | null; signal?: AbortSignal }) {
    return drawCover(image, outJpg, options);
  }

  async analyseFraming(source: string, options: AnalyzeOptions = {}) {
    const audioStream = await this.speechStream(source, options.signal);
    return analyzeSubjects(source, { ...options, audioStream });
  }

  async planFraming(source: string, request: FramingRequest, options: PlanFramingToolOptions = {}) {
    // `original` only scales the picture: no sound is read.
    if (request.aspect === 'original') return planClipFraming(source, request, options);
    const audioStream = await this.speechStream(source, options.signal);
    return planClipFraming(source, request, { ...options, audioStream });
  }

  audioLoudness(wav: string, options?: ToolOptions) {
    return frameLoudness(wav, options?.signal);
  }

  async measureLoudness(source: string, span: Span, signal?: AbortSignal) {
    const audioStream = await this.speechStream(source, signal);
    return measureLoudness(source, span.startMs, span.endMs, signal, audioStream);
  }

  async detectSilences(
    source: string,
    span: Span,
    options: { signal?: AbortSignal; loudness?: LoudnessMeasure } = {},
  ) {
    const audioStream = await this.speechStream(source, options.signal);
    return detectSilences(source, span.startMs, span.endMs, { ...options, audioStream });
  }

  logoImage(input: string, output: string, options: DecodeLogoOptions) {
    return decodeLogoImage(input, output, options);
  }

  async render(input: RenderClipInput) {
    const audioStream = input.hasAudio
      ? await this.speechStream(input.sourceFile, input.signal)
      : 0;
    return renderClip({ ...input, audioStream });
  }
}
