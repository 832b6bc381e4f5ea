/**
 * Reframing: keep the subject in frame for another aspect ratio (9:16, 1:1, 4:5, 16:9).
 *
 *   const analysis = await analyzeSubjects(file, { startMs, endMs });
 *   const plan = planReframe(analysis, { aspect: '9:16', quality: '1080p', layout: 'auto' });
 *   const vf = reframeFilter(plan); // chain captions after it in the same ffmpeg pass
 *   // plan.captionBackground.bottom: 'light' | 'busy' | 'plain', for the captions' backing
 */
export {
  ASPECT_RATIOS,
  OUTPUT_QUALITIES,
  cropWindowSize,
  fitInside,
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
export type { EnergySample } from './detections';
export {
  MemoryDetectionStore,
  uncoveredRanges,
  type DetectedStretch,
  type DetectionStore,
} from './detections';
export type { AnalyzedFrame, SubjectTrack, TrackPoint } from './track';
export {
  planReframe,
  type CropKeyframe,
  type PlanLayout,
  type PlanOptions,
  type ReframePlan,
} from './plan';
export {
  FRAMING_LAYOUTS,
  segmentLayouts,
  type FramingLayout,
  type LayoutChoice,
  type LayoutSegment,
  type Pane,
} from './layout';
export { understandShots, whoSpeaks, type FrameShot, type ShotKind } from './shots';
export {
  captionRegion,
  type CaptionBackground,
  type CaptionBackgrounds,
} from './caption-background';
export { measureScene, type SceneSample } from './scene';
export { windowAt } from './path';
export { reframeFilter } from './filter';
export { reframeVideo, type ReframeVideoOptions } from './render';
