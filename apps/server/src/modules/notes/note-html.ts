import sanitizeHtml from 'sanitize-html';

/**
 * What a note may contain: the rich-text editor's formatting and links. Links may point into the
 * app (timestamp links such as /video/{taskId}/summary?t=90000) or to http(s) pages; scripts,
 * styles, event handlers and javascript: links are dropped.
 */
export function sanitizeNoteHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'h1',
      'h2',
      'h3',
      'h4',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'code',
      'pre',
      'blockquote',
      'ul',
      'ol',
      'li',
      'a',
      'hr',
      'mark',
    ],
    allowedAttributes: { a: ['href', 'data-time', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesAppliedToAttributes: ['href'],
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs): sanitizeHtml.Tag => {
        const href = attribs.href ?? '';
        // Relative links stay in the app; outside links open safely in a new tab.
        if (href.startsWith('/') && !href.startsWith('//')) {
          const inApp: sanitizeHtml.Attributes = { href };
          if (attribs['data-time']) inApp['data-time'] = attribs['data-time'];
          return { tagName, attribs: inApp };
        }
        return {
          tagName,
          attribs: { href, target: '_blank', rel: 'noopener noreferrer nofollow' },
        };
      },
    },
  });
}

/** The note's words without markup, for search and previews. */
export const plainTextOf = (html: string) =>
  sanitizeHtml(html.replace(/<\/(p|h\d|li|blockquote|pre)>/g, ' $&'), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A timestamp link into the video: the summary page seeks to `t` (ms). */
export const timestampLink = (taskId: string, ms: number, label: string) =>
  `<a href="/video/${taskId}/summary?t=${Math.max(0, Math.round(ms))}" data-time="${Math.round(ms)}">${escapeHtml(label)}</a>`;

export { escapeHtml };
