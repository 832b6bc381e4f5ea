import { decodeLogoImage, type DecodeLogoOptions } from '@moments/media/logo';
/**
 * A media repository with no tools behind it, for service tests: it answers what a
 * test sets (the probe's facts, a failure of one tool) and writes small stand-in files where the
 * real tools would write media, so a service runs end to end in milliseconds without ffmpeg.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DownloadOptions, VideoMetadata } from '@moments/media/ingest';
import type { MediaInfo } from '@moments/media/probe';
import type {
  ClipFraming,
  FramingRequest,
  MediaRepository,
  RenderClipInput,
  Span,
} from '../../src/modules/media/media.repository.js';

type Tool = keyof MediaRepository;

export class FakeMediaRepository implements MediaRepository {
  /**
   * What probe answers, and measure and validateUpload with their length from `measuredMs`: a 6 s
   * 1280x720 MP4 with sound, unless a test says otherwise.
   */
  info: MediaInfo = {
    durationMs: 6000,
    width: 1280,
    height: 720,
    fps: 25,
    hasVideo: true,
    hasAudio: true,
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    videoCodec: 'h264',
    audioCodec: 'aac',
    sizeBytes: 1000,
  };
  /**
   * Where the packets end, as `measure` and `validateUpload` read it; unset, the header's length
   * (`info.durationMs`) is the truth. Set it apart to play a file whose header lies.
   */
  measuredMs?: number;
  /** What a link's metadata reads. */
  metadata: VideoMetadata = {
    title: 'A linked video',
    thumbnail: null,
    durationMs: 6000,
    videoPlatform: 'direct',
    channelTitle: null,
    viewCount: null,
    publishedAt: null,
    webpageUrl: 'https://example.com/video.mp4',
  };
  /** The bytes `render` writes as the finished clip. */
  renderedBytes = Buffer.from('fake rendered clip');
  /** Tools that fail, with the error the real one would throw. */
  readonly failing = new Map<Tool, Error>();
  /** Every call, in order, with its first argument (the file or link it was given). */
  readonly calls: { tool: Tool; subject: string }[] = [];

  private use(tool: Tool, subject: string, signal?: AbortSignal): void {
    this.calls.push({ tool, subject });
    signal?.throwIfAborted();
    const failure = this.failing.get(tool);
    if (failure) throw failure;
  }

  async probe(file: string, options?: { signal?: AbortSignal }): Promise<MediaInfo> {
    this.use('probe', file, options?.signal);
    return { ...this.info };
  }

  async measure(file: string, options?: { signal?: AbortSignal }): Promise<MediaInfo> {
    this.use('measure', file, options?.signal);
    return this.measured();
  }

  async validateUpload(file: string): Promise<MediaInfo> {
    this.use('validateUpload', file);
    return { ...this.measured(), sizeBytes: (await fs.stat(file)).size };
  }

  private measured(): MediaInfo {
    return {
      ...this.info,
      durationMs: this.measuredMs ?? this.info.durationMs,
      headerDurationMs: this.info.durationMs,
    };
  }

  async fetchMetadata(link: string, options?: { signal?: AbortSignal }): Promise<VideoMetadata> {
    this.use('fetchMetadata', link, options?.signal);
    return { ...this.metadata };
  }

  async download(link: string, outDir: string, options?: DownloadOptions) {
    this.use('download', link, options?.signal);
    const file = path.join(outDir, 'download.mp4');
    await fs.writeFile(file, 'fake downloaded video');
    options?.onProgress?.(1);
    return { file, metadata: { ...this.metadata } };
  }

  async extractAudio(source: string, outWav: string, options?: { signal?: AbortSignal }) {
    this.use('extractAudio', source, options?.signal);
    await fs.writeFile(outWav, 'fake wav');
    return outWav;
  }

  /**
   * Steady speech-level loudness over the probed length, with a short pause every 10 s, so a
   * long audio is cut into chunks as real speech would be.
   */
  async audioLoudness(wav: string, options?: { signal?: AbortSignal }) {
    this.use('audioLoudness', wav, options?.signal);
    const frames = Math.round((this.measuredMs ?? this.info.durationMs) / 10);
    return Float32Array.from({ length: frames }, (_, i) => (i % 1000 < 950 ? -20 : -80));
  }

  async extractAudioSpan(
    wav: string,
    outWav: string,
    _span: Span,
    options?: { signal?: AbortSignal },
  ) {
    this.use('extractAudioSpan', wav, options?.signal);
    await fs.writeFile(outWav, 'fake wav span');
    return outWav;
  }

  async cutSpan(source: string, outFile: string, _span: Span, options?: { signal?: AbortSignal }) {
    this.use('cutSpan', source, options?.signal);
    await fs.writeFile(outFile, 'fake span');
  }

  async thumbnail(source: string, outJpg: string, options: { signal?: AbortSignal }) {
    this.use('thumbnail', source, options.signal);
    await fs.writeFile(outJpg, 'fake jpeg');
    return { atMs: 0 };
  }

  /** Logos are decoded for real: they are small, and what is checked is the decoding. */
  logoImage(input: string, output: string, options: DecodeLogoOptions) {
    this.use('logoImage', input);
    return decodeLogoImage(input, output, options);
  }

  async imageThumbnail(image: string, outJpg: string, options?: { signal?: AbortSignal }) {
    this.use('imageThumbnail', image, options?.signal);
    await fs.writeFile(outJpg, 'fake jpeg');
  }

  async cover(image: string, outJpg: string, options?: { signal?: AbortSignal }) {
    this.use('cover', image, options?.signal);
    await fs.writeFile(outJpg, 'fake cover');
  }

  async analyseFraming(source: string): Promise<never> {
    this.use('analyseFraming', source);
    throw new Error('FakeMediaRepository analyses no faces: plan framings with planFraming');
  }

  /** Always a plain scale to the output size: the fake looks at no picture. */
  async planFraming(
    source: string,
    request: FramingRequest,
    options?: { signal?: AbortSignal; onProgress?: (fraction: number) => void },
  ): Promise<ClipFraming> {
    this.use('planFraming', source, options?.signal);
    options?.onProgress?.(1);
    return { layout: 'scale', output: request.output };
  }

  async measureLoudness(source: string, _span: Span, signal?: AbortSignal) {
    this.use('measureLoudness', source, signal);
    return undefined;
  }

  /** No audio is read: no silence is found (pauses then come from the word gaps). */
  async detectSilences(source: string, _span: Span, options: { signal?: AbortSignal } = {}) {
    this.use('detectSilences', source, options.signal);
    return [];
  }

  async render(input: RenderClipInput): Promise<void> {
    this.use('render', input.sourceFile, input.signal);
    input.onProgress?.(0.5);
    await fs.writeFile(input.outputFile, this.renderedBytes);
    input.onProgress?.(1);
  }
}
