export { summariseTranscript, chapterBoundaries } from './summarise';
export type { SummariseOptions, VideoSummary, SummaryChapter, SummaryKeyPoint } from './summarise';
