/**
 * Reframing: keep the subject in frame for another aspect ratio (9:16, 1:1, 4:5, 16:9).
 *
 *   const analysis = await analyzeSubjects(file, { startMs, endMs });
 *   const plan = planReframe(analysis, { aspect: '9:16', quality: '1080p' });
 *   const vf = reframeFilter(plan); // chain captions after it in the same ffmpeg pass
 */
export {
  ASPECT_RATIOS,
  OUTPUT_QUALITIES,
  cropWindowSize,
  isAspectRatio,
  outputSize,
  type AspectRatio,
  type OutputQuality,
  type Size,
} from './aspect';
export {
  DENSE_FACTOR,
  analyzeSubjects,
  type AnalyzeOptions,
  type SubjectAnalysis,
} from './analyze';
export type { FaceBox } from './detect';
export {
  MemoryDetectionStore,
  uncoveredRanges,
  type DetectedStretch,
  type DetectionStore,
} from './detections';
export type { AnalyzedFrame, SubjectTrack, TrackPoint } from './track';
export {
  planReframe,
  type BlurFitPlan,
  type CropKeyframe,
  type CropPlan,
  type PlanOptions,
  type ReframePlan,
} from './plan';
export { reframeFilter } from './filter';
export { reframeVideo, type ReframeVideoOptions } from './render';
