import type { DecodeLogoOptions } from '@moments/media/logo';
/**
 * The one door from the server's services to the media tools (ffmpeg, ffprobe, yt-dlp, the face
 * detector): services get a MediaRepository from the composition root instead of calling
 * @moments/media's tool wrappers, so each can be tested alone with the fake in ../../testing.
 * The real one is ToolsMediaRepository (tools-media.repository.ts); the ESLint rule
 * `no-restricted-imports` keeps the wrappers out of every other file under modules/.
 */
import type {
  DownloadedVideo,
  DownloadOptions,
  IngestOptions,
  VideoMetadata,
} from '@moments/media/ingest';
import type { ExtractOptions, MediaInfo, ValidateOptions } from '@moments/media/probe';
import type { AnalyzeOptions, SubjectAnalysis } from '@moments/media/reframe';
import type { PickThumbnailOptions } from '@moments/media/thumbnail';
import type {
  ClipFraming,
  FramingRequest,
  LoudnessMeasure,
  RenderClipInput,
} from './clip-render.js';

export type {
  ClipFraming,
  FramingRequest,
  LoudnessMeasure,
  RenderClipInput,
  VideoEncoderSettings,
} from './clip-render.js';

export interface Span {
  startMs: number;
  endMs: number;
}

export interface ToolOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface PlanFramingToolOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  workDir?: string;
  detections?: AnalyzeOptions['detections'];
}

export interface MediaRepository {
  /**
   * What a media file holds (ffprobe), with the length its header states: for picture sizes and
   * other facts, never for what the work on the file costs. Throws MediaError CORRUPT_MEDIA when
   * unreadable.
   */
  probe(file: string, options?: { signal?: AbortSignal }): Promise<MediaInfo>;
  /**
   * What a media file holds with its real length, measured from its packets (a header can
   * understate it): what prices, limits and bounds the work on it. Reads the whole file. Throws
   * MediaError CORRUPT_MEDIA when unreadable or when no packet plays.
   */
  measure(file: string, options?: { signal?: AbortSignal }): Promise<MediaInfo>;
  /**
   * An uploaded file checked before anything else touches it (extension, container, a video
   * stream, a playable length), its length measured from its packets. Throws MediaError with the
   * user-facing code.
   */
  validateUpload(file: string, originalName: string, options?: ValidateOptions): Promise<MediaInfo>;
  /** The link's metadata without downloading the video (yt-dlp). */
  fetchMetadata(link: string, options?: IngestOptions): Promise<VideoMetadata>;
  /** The video of a link into `outDir` (yt-dlp), with its metadata. */
  download(link: string, outDir: string, options?: DownloadOptions): Promise<DownloadedVideo>;
  /** The audio as 16 kHz mono WAV for speech recognition, at most `maxDurationMs` of it. */
  extractAudio(source: string, outWav: string, options?: ExtractOptions): Promise<string>;
  /** Loudness (dBFS) of every 10 ms frame of a WAV: where a transcription may cut it. */
  audioLoudness(wav: string, options?: ToolOptions): Promise<Float32Array>;
  /** [startMs, endMs) of a WAV as its own WAV (a transcription chunk). */
  extractAudioSpan(
    wav: string,
    outWav: string,
    span: Span,
    options?: ExtractOptions,
  ): Promise<string>;
  /** [startMs, endMs) of a video as a small MP4 that plays anywhere (a shared moment). */
  cutSpan(source: string, outFile: string, span: Span, options?: ToolOptions): Promise<void>;
  /** The best-looking frame of a window as a JPEG; throws NOT_A_VIDEO when none decodes. */
  thumbnail(source: string, outJpg: string, options: PickThumbnailOptions): Promise<unknown>;
  /** A fetched image re-encoded as our own JPEG; throws NOT_AN_IMAGE for anything else. */
  imageThumbnail(image: string, outJpg: string, options?: { signal?: AbortSignal }): Promise<void>;
  /** A clip's cover: its picture as a JPEG, with the hook title drawn over it when given. */
  cover(
    image: string,
    outJpg: string,
    options?: { title?: string | null; signal?: AbortSignal },
  ): Promise<void>;
  /** Faces, shots and who speaks over a span: what framing decisions are made from. */
  analyseFraming(source: string, options?: AnalyzeOptions): Promise<SubjectAnalysis>;
  /** The framing of a clip: a plain scale for `original`, else planned from the analysis. */
  planFraming(
    source: string,
    request: FramingRequest,
    options?: PlanFramingToolOptions,
  ): Promise<ClipFraming & { analysis?: SubjectAnalysis }>;
  /** The first loudness pass over the clip's audio; undefined for silence. */
  measureLoudness(
    source: string,
    span: Span,
    signal?: AbortSignal,
  ): Promise<LoudnessMeasure | undefined>;
  /** The silent stretches of the span's speech audio (its energy), in source ms. */
  detectSilences(
    source: string,
    span: Span,
    options?: { signal?: AbortSignal; loudness?: LoudnessMeasure },
  ): Promise<Span[]>;
  /** The clip itself: framing, captions, loudness, H.264 + AAC. */
  render(input: RenderClipInput): Promise<void>;
  /** A brand kit's logo decoded in full and kept as a PNG; throws LogoImageError otherwise. */
  logoImage(
    input: string,
    output: string,
    options: DecodeLogoOptions,
  ): Promise<{ width: number; height: number }>;
}
