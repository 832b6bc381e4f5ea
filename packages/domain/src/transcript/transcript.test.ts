import { describe, expect, it } from 'vitest';
import { storedSegments, storedTranscript, toApiTranscript, transcriptWords } from './index.js';

const row = {
  language: 'en',
  durationMs: 4_000,
  segments: [
    {
      startMs: 2_000,
      endMs: 3_500,
      text: 'to the moon',
      words: [
        { text: 'moon', startMs: 3_000, endMs: 3_500, confidence: 0.8 },
        { text: 'to', startMs: 2_000, endMs: 2_200 },
      ],
    },
    {
      startMs: 0,
      endMs: 1_500,
      text: 'we choose',
      words: [{ text: 'we', startMs: 0, endMs: 300 }],
    },
    { text: 'a segment from a damaged row without times' },
  ],
};

describe('stored transcript mapping', () => {
  it('reads a row without passing on malformed segments, defaulting missing confidence', () => {
    const segments = storedSegments(row.segments);
    expect(segments).toHaveLength(2);
    expect(segments[0]!.words[1]).toEqual({
      text: 'to',
      startMs: 2_000,
      endMs: 2_200,
      confidence: 1,
    });
    expect(storedSegments(null)).toEqual([]);
  });

  it('maps to the API shape in ms and lists words in time order', () => {
    const transcript = storedTranscript(row);
    const api = toApiTranscript('task-1', transcript);
    expect(api).toMatchObject({ task_id: 'task-1', language: 'en', duration_ms: 4_000 });
    expect(api.segments[0]).toMatchObject({ start: 2_000, end: 3_500, text: 'to the moon' });
    expect(api.segments[0]!.words[0]).toEqual({
      text: 'moon',
      start: 3_000,
      end: 3_500,
      confidence: 0.8,
    });
    expect(transcriptWords(transcript.segments).map((word) => word.text)).toEqual([
      'we',
      'to',
      'moon',
    ]);
  });
});
