import { describe, expect, it } from 'vitest';
import { createSpeechEngine } from './create';

describe('createSpeechEngine', () => {
  it('keeps what chunked transcription needs through the whole-words wrapper', () => {
    const engine = createSpeechEngine({ ASR_PROCESSES: '2' });
    // Two chunks at once, the language detected once, the processes stopped at shutdown.
    expect(engine.parallelism).toBe(2);
    expect(typeof engine.detectLanguage).toBe('function');
    expect(typeof engine.close).toBe('function');
    engine.close?.();
  });
});
