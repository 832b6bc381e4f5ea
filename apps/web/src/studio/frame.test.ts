import { describe, expect, it } from 'vitest';
import { exportFrameSize } from './frame';

describe('export frame size', () => {
  it('gives the short side the chosen quality and the long side the aspect', () => {
    expect(exportFrameSize('9:16', '720p')).toEqual({ width: 720, height: 1280 });
    expect(exportFrameSize('9:16', '1080p')).toEqual({ width: 1080, height: 1920 });
    expect(exportFrameSize('1:1', '720p')).toEqual({ width: 720, height: 720 });
    expect(exportFrameSize('4:5', '1080p')).toEqual({ width: 1080, height: 1350 });
    expect(exportFrameSize('16:9', '720p')).toEqual({ width: 1280, height: 720 });
  });
});
