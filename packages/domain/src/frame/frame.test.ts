import { describe, expect, it } from 'vitest';
import { outputSize, uprightFrameSize } from './index.js';

describe('frame sizes shared by the editor and the export', () => {
  it('names the short side by the quality, with even sizes', () => {
    expect(outputSize('9:16', '1080p')).toEqual({ width: 1080, height: 1920 });
    expect(outputSize('16:9', '720p')).toEqual({ width: 1280, height: 720 });
    expect(outputSize('4:5', '1080p')).toEqual({ width: 1080, height: 1350 });
    expect(outputSize('1:1', '720p')).toEqual({ width: 720, height: 720 });
  });

  it('turns a phone video stored sideways upright', () => {
    expect(uprightFrameSize(1920, 1080, 90)).toEqual({ width: 1080, height: 1920 });
    expect(uprightFrameSize(1920, 1080, -90)).toEqual({ width: 1080, height: 1920 });
    expect(uprightFrameSize(1920, 1080, 180)).toEqual({ width: 1920, height: 1080 });
  });
});
