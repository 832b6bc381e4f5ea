export { summariseTranscript } from './summarise';
export type { SummariseOptions, VideoSummary, SummaryChapter, SummaryKeyPoint } from './summarise';
