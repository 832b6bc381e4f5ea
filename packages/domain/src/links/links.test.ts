import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CDN_BASE,
  VideoLinkError,
  dailymotionVideoId,
  detectVideoSource,
  isCdnClip,
  isCdnSource,
  isValidDailymotionLink,
  normalizeVideoUrl,
  parseVideoLink,
  stripYoutubePlaylistParams,
  youtubeVideoId,
} from './index.js';

describe('detectVideoSource (video sources)', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'youtube'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube'],
    ['https://music.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'youtube'],
    ['https://www.youtube.com/shorts/aqz-KE-bpKQ', 'youtube'],
    ['https://www.youtube.com/live/jfKfPfyJRdk', 'youtube'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'youtube'],
    ['youtube.com/watch?v=dQw4w9WgXcQ', 'youtube'],
    ['  https://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ  ', 'youtube'],
    [
      'https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQrStUvWxYz012345/view?usp=sharing',
      'google_drive',
    ],
    ['https://drive.google.com/open?id=1AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'google_drive'],
    ['https://docs.google.com/uc?export=download&id=1AbCdEfGh', 'google_drive'],
    ['https://www.dailymotion.com/video/x8j7k2m', 'dailymotion'],
    ['https://dai.ly/x8j7k2m', 'dailymotion'],
    ['https://vimeo.com/76979871', 'vimeo'],
    ['https://player.vimeo.com/video/76979871?h=8272103f6e', 'vimeo'],
    ['https://www.tiktok.com/@scout2015/video/6718335390845095173', 'tiktok'],
    ['https://vm.tiktok.com/ZMeAbCdEf/', 'tiktok'],
    ['https://www.facebook.com/watch/?v=10153231379946729', 'facebook'],
    ['https://fb.watch/aBcD1234/', 'facebook'],
    ['https://m.facebook.com/story.php?story_fbid=1&id=2', 'facebook'],
    ['https://www.twitch.tv/videos/1234567890', 'twitch'],
    ['https://clips.twitch.tv/AwkwardHelplessSalamanderSwiftRage', 'twitch'],
    ['https://www.bilibili.com/video/BV1GJ411x7h7', 'bilibili'],
    ['https://b23.tv/abc123', 'bilibili'],
    ['https://example.com/media/talk.mp4', 'direct'],
    ['http://203.0.113.7:8080/video.webm', 'direct'],
    ['https://docs.google.com/document/d/1abc/edit', 'direct'],
  ])('%s is %s', (link, source) => {
    expect(detectVideoSource(link)).toBe(source);
  });

  it('does not trust look-alike hosts', () => {
    expect(detectVideoSource('https://notyoutube.com/watch?v=dQw4w9WgXcQ')).toBe('direct');
    expect(detectVideoSource('https://youtube.com.evil.example/watch?v=x')).toBe('direct');
    expect(detectVideoSource('https://evil.example/?u=https://www.youtube.com/watch')).toBe(
      'direct',
    );
    expect(detectVideoSource('https://vimeo.co/123')).toBe('direct');
  });

  it('refuses what is not an http(s) link', () => {
    for (const link of [
      '',
      '   ',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'ftp://example.com/video.mp4',
      'data:video/mp4;base64,AAAA',
      'https://user:secret@example.com/video.mp4',
      'http://',
    ]) {
      expect(() => detectVideoSource(link), link).toThrow(VideoLinkError);
    }
  });
});

describe('normalizeVideoUrl (YouTube links lose list and index)', () => {
  it('drops list and index from YouTube links and keeps the rest', () => {
    expect(
      normalizeVideoUrl(
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI&index=3&t=42s',
      ),
    ).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s');
    expect(normalizeVideoUrl('https://youtu.be/dQw4w9WgXcQ?list=PL123&index=7')).toBe(
      'https://youtu.be/dQw4w9WgXcQ',
    );
    expect(normalizeVideoUrl('https://m.youtube.com/watch?index=2&v=dQw4w9WgXcQ')).toBe(
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
    );
  });

  it('leaves list and index on other sites', () => {
    expect(normalizeVideoUrl('https://example.com/v.mp4?list=a&index=2')).toBe(
      'https://example.com/v.mp4?list=a&index=2',
    );
  });

  it('adds a missing scheme and lower-cases the host', () => {
    expect(normalizeVideoUrl('YouTube.com/watch?v=dQw4w9WgXcQ&list=PL1')).toBe(
      'https://youtube.com/watch?v=dQw4w9WgXcQ',
    );
    expect(normalizeVideoUrl('Example.COM/Path/Video.MP4')).toBe(
      'https://example.com/Path/Video.MP4',
    );
    expect(normalizeVideoUrl('localhost:8080/a.mp4')).toBe('https://localhost:8080/a.mp4');
  });

  it('stripYoutubePlaylistParams leaves other links exactly as given', () => {
    expect(stripYoutubePlaylistParams('https://vimeo.com/1?list=2')).toBe(
      'https://vimeo.com/1?list=2',
    );
    expect(
      stripYoutubePlaylistParams('https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1&index=1'),
    ).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  });
});

describe('youtubeVideoId', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?t=1', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/aqz-KE-bpKQ', 'aqz-KE-bpKQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/live/jfKfPfyJRdk?feature=share', 'jfKfPfyJRdk'],
    ['https://www.youtube.com/@channel', undefined],
    ['https://www.youtube.com/watch?v=short', undefined],
    ['https://vimeo.com/76979871', undefined],
    ['not a link at all', undefined],
  ])('%s → %s', (link, id) => {
    expect(youtubeVideoId(link)).toBe(id);
  });
});

describe('Dailymotion links', () => {
  it('take the last path segment as the id', () => {
    expect(dailymotionVideoId('https://www.dailymotion.com/video/x8j7k2m')).toBe('x8j7k2m');
    expect(dailymotionVideoId('http://www.dailymotion.com/video/x8j7k2m')).toBe('x8j7k2m');
    expect(dailymotionVideoId('https://dailymotion.com/video/x8j7k2m/')).toBe('x8j7k2m');
    expect(dailymotionVideoId('https://www.dailymotion.com/embed/video/x8j7k2m?autoplay=1')).toBe(
      'x8j7k2m',
    );
  });

  it('must start with the http or https Dailymotion domain', () => {
    expect(isValidDailymotionLink('https://www.dailymotion.com/video/x8j7k2m')).toBe(true);
    expect(isValidDailymotionLink('www.dailymotion.com/video/x8j7k2m')).toBe(false);
    expect(isValidDailymotionLink('ftp://www.dailymotion.com/video/x8j7k2m')).toBe(false);
    expect(isValidDailymotionLink('https://dailymotion.com.evil.example/video/x8j7k2m')).toBe(
      false,
    );
    expect(isValidDailymotionLink('https://evil.example/https://www.dailymotion.com/video/x')).toBe(
      false,
    );
    expect(isValidDailymotionLink('https://www.dailymotion.com/')).toBe(false);
  });
});

describe('CDN-hosted sources', () => {
  const cdn = 'https://media-cdn.example.net/';

  it('are those whose address starts with the CDN domain', () => {
    expect(isCdnSource(`${cdn}videos/abc/full_video/source.mp4`, cdn)).toBe(true);
    expect(isCdnSource('https://other.example.net/videos/abc.mp4', cdn)).toBe(false);
    expect(isCdnSource(`https://evil.example/?x=${cdn}`, cdn)).toBe(false);
    expect(isCdnSource(`${DEFAULT_CDN_BASE}a/full_video/b.mp4`)).toBe(true);
  });

  it('are clips unless the path has the full_video segment', () => {
    expect(isCdnClip(`${cdn}videos/abc/clip_12.mp4`, cdn)).toBe(true);
    expect(isCdnClip(`${cdn}videos/abc/full_video/source.mp4`, cdn)).toBe(false);
    expect(isCdnClip(`${cdn}videos/abc/full_video_preview.mp4`, cdn)).toBe(true);
    expect(isCdnClip('https://other.example.net/videos/clip.mp4', cdn)).toBe(false);
  });
});

describe('parseVideoLink', () => {
  it('returns a URL for pasted links with spaces around them', () => {
    expect(parseVideoLink('  https://vimeo.com/76979871 \n').href).toBe(
      'https://vimeo.com/76979871',
    );
  });

  it('reads a lone word as a search, not as a host (regression: "quayside" became https://quayside/)', () => {
    for (const words of ['quayside', 'cats', 'how-to']) {
      expect(() => parseVideoLink(words)).toThrow(VideoLinkError);
    }
    expect(parseVideoLink('youtube.com/watch?v=abc').hostname).toBe('youtube.com');
    expect(parseVideoLink('localhost:8080/v.mp4').hostname).toBe('localhost');
    expect(parseVideoLink('http://intranet/v.mp4').hostname).toBe('intranet');
    expect(parseVideoLink('127.0.0.1/v.mp4').hostname).toBe('127.0.0.1');
  });
});
