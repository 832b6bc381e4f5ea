import { describe, expect, it } from 'vitest';
import { injectPreviewTags } from './shares.controller.js';

const INDEX =
  '<!doctype html><html><head><title>Moments</title></head><body><div id="root"></div></body></html>';

describe('link preview tags of /s/ pages', () => {
  it('puts the title and description into Open Graph tags and the page title', () => {
    const html = injectPreviewTags(
      INDEX,
      { title: 'Bees and lava', description: 'Notes on a talk.', image: 'https://img.test/t.jpg' },
      'https://moments.test/s/abc?note=1',
    );
    expect(html).toContain('<meta property="og:title" content="Bees and lava" />');
    expect(html).toContain('<meta property="og:description" content="Notes on a talk." />');
    expect(html).toContain('<meta property="og:image" content="https://img.test/t.jpg" />');
    expect(html).toContain(
      '<meta property="og:url" content="https://moments.test/s/abc?note=1" />',
    );
    expect(html).toContain('<title>Bees and lava · Moments</title>');
    expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
  });

  it('cannot be broken out of by a hostile note title', () => {
    const html = injectPreviewTags(
      INDEX,
      { title: '"><script>alert(1)</script>', description: '</title><img src=x onerror=alert(1)>' },
      'https://moments.test/s/abc',
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});
