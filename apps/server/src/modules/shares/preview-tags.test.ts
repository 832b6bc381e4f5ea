import { describe, expect, it } from 'vitest';
import { injectPreviewTags } from './shares.controller.js';
import { clipDescription } from './shares.service.js';

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

  it('previews a vertical clip with its size and says what the clip is', () => {
    const description = clipDescription({
      duration_ms: 42_400,
      video_title: 'The kitchen show',
      about: 'Let the dough rest overnight in the fridge.',
    });
    expect(description).toBe(
      'A 42 s clip from “The kitchen show”: Let the dough rest overnight in the fridge.',
    );
    expect(clipDescription({ duration_ms: null, video_title: null, about: null })).toBe(
      'A clip, made with Moments.',
    );
    expect(
      clipDescription({ duration_ms: 1000, video_title: 'T', about: 'word '.repeat(80) }).length,
    ).toBeLessThanOrEqual(200);
    const html = injectPreviewTags(
      INDEX,
      {
        title: 'Best bit',
        description,
        image: 'https://moments.test/api/thumbnail/job/j1',
        imageSize: { width: 1080, height: 1920 },
        video: { url: 'https://moments.test/api/share/s1/clip.mp4', width: 1080, height: 1920 },
      },
      'https://moments.test/s/s1?clip=1',
    );
    for (const [property, value] of [
      ['og:image:width', '1080'],
      ['og:image:height', '1920'],
      ['og:video:width', '1080'],
      ['og:video:height', '1920'],
    ]) {
      expect(html).toContain(`<meta property="${property}" content="${value}" />`);
    }
  });
});
