import { describe, expect, it } from 'vitest';
import { sniffLogo, unsafeSvgReason } from './logo-image.js';

describe('logo checks', () => {
  it('tells a logo by its own first bytes, not its name', () => {
    expect(sniffLogo(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('png');
    expect(sniffLogo(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffLogo(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="x"></svg>'))).toBe('svg');
    expect(sniffLogo(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffLogo(Buffer.from('<html><svg></svg></html>'))).toBeNull();
  });

  it('refuses SVGs that could run or fetch something, takes plain drawings', () => {
    const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`;
    expect(unsafeSvgReason(svg('<rect width="1" height="1" fill="url(#g)"/>'))).toBeNull();
    expect(unsafeSvgReason(svg('<use href="#a"/>'))).toBeNull();
    for (const body of [
      '<script>alert(1)</script>',
      '<SCRIPT src="x.js"/>',
      '<foreignObject></foreignObject>',
      '<rect onload="alert(1)"/>',
      '<a href="javascript:alert(1)"/>',
      '<image xlink:href="https://example.com/x.png"/>',
      '<image href="file:///etc/passwd"/>',
      '<rect style="fill: url(https://example.com/x)"/>',
      '<style>@import "https://example.com/x.css";</style>',
    ]) {
      expect(unsafeSvgReason(svg(body)), body).not.toBeNull();
    }
    expect(unsafeSvgReason('<!DOCTYPE svg [<!ENTITY x "y">]><svg/>')).not.toBeNull();
  });
});
