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
  validateUploadedVideo,
  type ExtractOptions,
} from '@moments/media/probe';
import { analyzeSubjects, type AnalyzeOptions } from '@moments/media/reframe';
import {
  imageToThumbnail,
  pickThumbnail,
  type PickThumbnailOptions,
} from '@moments/media/thumbnail';
import { measureLoudness, planClipFraming, renderClip } from './clip-render.js';
import type {
  FramingRequest,
  MediaRepository,
  PlanFramingToolOptions,
  RenderClipInput,
  Span,
  ToolOptions,
} from './media.repository.js';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The media repository over the real tools (@moments/media, each run through @moments/process). */
export class ToolsMediaRepository implements MediaRepository {
  probe(file: string, options?: { signal?: AbortSignal }) {
    return probeMedia(file, options);
  }

  measure(file: string, options?: { signal?: AbortSignal }) {
    return measureMedia(file, options);
  }

  validateUpload(file: string, originalName: string) {
    return validateUploadedVideo(file, originalName);
  }

  fetchMetadata(link: string, options?: IngestOptions) {
    return fetchVideoMetadata(link, options);
  }

  download(link: string, outDir: string, options?: DownloadOptions) {
    return downloadVideo(link, outDir, options);
  }

  extractAudio(source: string, outWav: string, options?: ExtractOptions) {
    return extractAudioForAsr(source, outWav, options);
  }

  extractAudioSpan(wav: string, outWav: string, span: Span, options?: ExtractOptions) {
    return extractAudioSpan(wav, outWav, span, options);
  }

  cutSpan(source: string, outFile: string, span: Span, options: ToolOptions = {}) {
    return runFfmpeg(
      [
        ...['-ss', seconds(span.startMs), '-i', source, '-t', seconds(span.endMs - span.startMs)],
        ...['-map', '0:v:0?', '-map', '0:a:0?'],
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

  analyseFraming(source: string, options?: AnalyzeOptions) {
    return analyzeSubjects(source, options);
  }

  planFraming(source: string, request: FramingRequest, options?: PlanFramingToolOptions) {
    return planClipFraming(source, request, options);
  }

  measureLoudness(source: string, span: Span, signal?: AbortSignal) {
    return measureLoudness(source, span.startMs, span.endMs, signal);
  }

  render(input: RenderClipInput) {
    return renderClip(input);
  }
}
