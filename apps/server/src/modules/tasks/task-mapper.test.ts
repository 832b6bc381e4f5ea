import { Task } from '@moments/contract';
import { describe, expect, it } from 'vitest';
import { toTaskDto, type TaskDtoRow } from './task-mapper.js';

describe('toTaskDto', () => {
  it('fills the video defaults of a row stored with only a link and a title', () => {
    const at = new Date('2026-11-24T12:00:00Z');
    const row: TaskDtoRow = {
      id: 'a0000000-0000-4000-8000-000000000001',
      rootTaskId: null,
      kind: 'viral',
      urlSource: 'direct',
      sourceLang: 'auto',
      targetLang: null,
      captionDisplay: 'source',
      actAs: null,
      query: null,
      clipLength: 'auto',
      status: 'DONE',
      stage: 'finishing',
      progress: 100,
      errorReason: null,
      warnings: [],
      video: { url: 'https://example.com/v.mp4', title: 'Old row' },
      thumbnailKey: null,
      detectedLang: 'en',
      durationMs: 60_000,
      costCredits: 5,
      reusesTranscript: false,
      createdAt: at,
      updatedAt: at,
    };
    const dto = toTaskDto(row);
    expect(dto.video).toMatchObject({ title: 'Old row', thumbnail: null, duration: null });
    // What the response check on the way out accepts (it fills no defaults itself).
    expect(Task.safeParse(dto).success).toBe(true);
    expect(dto).toMatchObject({ done: true, completed: true, created_at: at.getTime() });
  });
});
