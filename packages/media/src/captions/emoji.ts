/**
 * Emoji for caption lines: a small, reviewed mapping from everyday words to one emoji, and the
 * emoji's colour picture as ASS vector drawings. libass draws glyphs of a colour font (Noto Color
 * Emoji) as one-colour shapes or tofu, in ffmpeg and in JASSUB alike, so each emoji is drawn from
 * its Twemoji SVG (CC-BY 4.0 graphics, MIT code), one drawing per colour: the export and the
 * preview draw the same document, in colour.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import svgpath from 'svgpath';

/**
 * Word forms (lower case, as spoken) and the emoji their line gets. Only words whose everyday
 * meaning is the picture's: no word that is often a name, a number or a filler.
 */
export const EMOJI_WORDS: readonly { emoji: string; words: readonly string[] }[] = [
  { emoji: '💰', words: ['money', 'cash', 'dollars', 'paid', 'salary', 'rich'] },
  { emoji: '❤️', words: ['love', 'loved', 'loves', 'heart'] },
  { emoji: '🚀', words: ['rocket', 'rockets', 'launch', 'launched', 'spaceship'] },
  { emoji: '💡', words: ['idea', 'ideas', 'lightbulb', 'insight'] },
  { emoji: '🔥', words: ['fire', 'flames', 'burning', 'flame'] },
  { emoji: '⏰', words: ['clock', 'alarm', 'deadline'] },
  { emoji: '☕', words: ['coffee', 'espresso', 'tea'] },
  { emoji: '🎵', words: ['music', 'song', 'songs', 'melody'] },
  { emoji: '📱', words: ['phone', 'phones', 'smartphone', 'iphone'] },
  { emoji: '💻', words: ['computer', 'laptop', 'computers', 'laptops'] },
  { emoji: '📚', words: ['book', 'books', 'library', 'novel'] },
  { emoji: '😴', words: ['sleep', 'sleeping', 'asleep', 'tired'] },
  { emoji: '😊', words: ['happy', 'smile', 'smiling', 'glad'] },
  { emoji: '😢', words: ['sad', 'crying', 'cried', 'tears'] },
  { emoji: '😂', words: ['laugh', 'laughing', 'funny', 'hilarious'] },
  { emoji: '🏆', words: ['win', 'winning', 'winner', 'champion', 'trophy'] },
  { emoji: '📈', words: ['growth', 'growing', 'profit', 'profits'] },
  { emoji: '🌍', words: ['world', 'planet', 'earth', 'global'] },
  { emoji: '☀️', words: ['sun', 'sunny', 'sunshine', 'summer'] },
  { emoji: '🌧', words: ['rain', 'raining', 'rainy', 'storm'] },
  { emoji: '🍕', words: ['pizza', 'pizzas'] },
  { emoji: '🚗', words: ['car', 'cars', 'driving', 'drove'] },
  { emoji: '✈️', words: ['plane', 'flight', 'airport', 'flights', 'airplane'] },
  { emoji: '🏠', words: ['home', 'house', 'houses'] },
  { emoji: '🎓', words: ['school', 'university', 'graduate', 'graduation', 'college'] },
  { emoji: '🧠', words: ['brain', 'brains', 'mind'] },
  { emoji: '💪', words: ['strong', 'strength', 'muscle', 'muscles'] },
  { emoji: '🎉', words: ['party', 'celebrate', 'celebration', 'congratulations'] },
  { emoji: '🎁', words: ['gift', 'gifts', 'presents'] },
  { emoji: '⚠️', words: ['warning', 'danger', 'dangerous', 'careful'] },
  { emoji: '⭐', words: ['star', 'stars'] },
  { emoji: '🏥', words: ['hospital', 'doctor', 'doctors', 'nurse'] },
  { emoji: '🐶', words: ['dog', 'dogs', 'puppy'] },
  { emoji: '🐱', words: ['cat', 'cats', 'kitten'] },
  { emoji: '💧', words: ['water', 'drop', 'thirsty'] },
  { emoji: '📷', words: ['camera', 'cameras', 'photo', 'photos'] },
  { emoji: '🎬', words: ['movie', 'movies', 'film', 'films'] },
  { emoji: '⚡', words: ['lightning', 'electricity', 'energy'] },
  { emoji: '🤯', words: ['mindblowing', 'mind-blowing', 'unbelievable', 'shocking'] },
];

const BY_WORD = new Map<string, string>(
  EMOJI_WORDS.flatMap(({ emoji, words }) => words.map((word) => [word, emoji] as const)),
);

export interface EmojiWord {
  text: string;
  /** The word opens a sentence (its capital says nothing about it being a name). */
  sentenceStart: boolean;
}

/**
 * The emoji for one caption line: the first word the mapping knows, unless it is written as a
 * name (a capital inside a sentence: "Mr Love", "Apple") or holds a digit.
 * Undefined when no word matches; else the emoji and the index of its word.
 */
export function emojiForLine(
  words: readonly EmojiWord[],
): { emoji: string; index: number } | undefined {
  for (const [index, word] of words.entries()) {
    const bare = word.text.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
    if (!bare || /\p{N}/u.test(bare)) continue;
    const capital = /^\p{Lu}/u.test(bare);
    const allCaps = bare === bare.toLocaleUpperCase() && bare !== bare.toLocaleLowerCase();
    // Upper-cased captions (a template's look) keep every word's meaning: only true names skip.
    if (capital && !allCaps && !word.sentenceStart) continue;
    const emoji = BY_WORD.get(bare.toLocaleLowerCase());
    if (emoji) return { emoji, index };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Twemoji SVG → ASS drawings.

/** One colour of an emoji: an ASS drawing (`m`, `l`, `b` commands) on a 36-unit square. */
export interface EmojiLayer {
  /** `#RRGGBB`. */
  color: string;
  /** Path segments in SVG units (0..36), absolute, as move/line/cubic commands. */
  commands: (['M', number, number] | ['L', number, number] | ['C', ...number[]])[];
}

/** Twemoji draws on a 36 x 36 square. */
const EMOJI_UNITS = 36;

const svgDir = (() => {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@twemoji/svg/package.json'));
})();

/** Twemoji's file name: code points in hex, without the variation selector. */
function twemojiFileName(emoji: string): string {
  return [...emoji]
    .map((char) => char.codePointAt(0)!)
    .filter((code) => code !== 0xfe0f)
    .map((code) => code.toString(16))
    .join('-');
}

const layerCache = new Map<string, EmojiLayer[]>();

/** The emoji's colour layers, bottom first; throws for an SVG feature the drawing cannot keep. */
export function emojiLayers(emoji: string): EmojiLayer[] {
  const cached = layerCache.get(emoji);
  if (cached) return cached;
  const svg = readFileSync(join(svgDir, `${twemojiFileName(emoji)}.svg`), 'utf8');
  const layers = svgLayers(svg);
  layerCache.set(emoji, layers);
  return layers;
}

const ATTRIBUTE = /([a-zA-Z-]+)="([^"]*)"/g;

/** Paths, circles and ellipses (inside groups that may set a fill) as coloured layers. */
function svgLayers(svg: string): EmojiLayer[] {
  if (/opacity|clip|mask|gradient|<use|<image|<text|stroke=/i.test(svg)) {
    throw new Error('emoji SVG uses a feature (opacity, clipping, gradients, strokes) not kept');
  }
  const fills: string[] = ['#000000'];
  const layers: EmojiLayer[] = [];
  for (const match of svg.matchAll(/<(\/?)([a-zA-Z]+)([^>]*?)(\/?)>/g)) {
    const [, closing, tag, rest, selfClosing] = match;
    const attributes = Object.fromEntries(
      [...rest!.matchAll(ATTRIBUTE)].map((a) => [a[1]!, a[2]!]),
    );
    if (tag === 'svg') continue;
    if (tag === 'g') {
      if (closing) fills.pop();
      else if (!selfClosing) fills.push(attributes.fill ?? fills[fills.length - 1]!);
      continue;
    }
    const fill = attributes.fill ?? fills[fills.length - 1]!;
    if (fill === 'none') continue;
    let d: string;
    if (tag === 'path') d = attributes.d ?? '';
    else if (tag === 'circle' || tag === 'ellipse') {
      const cx = Number(attributes.cx ?? 0);
      const cy = Number(attributes.cy ?? 0);
      const rx = Number(attributes.rx ?? attributes.r ?? 0);
      const ry = Number(attributes.ry ?? attributes.r ?? 0);
      d = `M${cx - rx} ${cy}A${rx} ${ry} 0 1 0 ${cx + rx} ${cy}A${rx} ${ry} 0 1 0 ${cx - rx} ${cy}Z`;
    } else throw new Error(`emoji SVG element <${tag}> is not drawn`);
    let path = svgpath(d);
    if (attributes.transform) path = path.transform(attributes.transform);
    layers.push({ color: hexColor(fill), commands: absoluteCommands(path) });
  }
  return layers;
}

function absoluteCommands(path: ReturnType<typeof svgpath>): EmojiLayer['commands'] {
  const commands: EmojiLayer['commands'] = [];
  path
    .abs()
    .unarc()
    .unshort()
    .iterate((segment, _index, x, y) => {
      const [kind, ...values] = segment;
      switch (kind) {
        case 'M':
          commands.push(['M', values[0]!, values[1]!]);
          break;
        case 'L':
          commands.push(['L', values[0]!, values[1]!]);
          break;
        case 'H':
          commands.push(['L', values[0]!, y]);
          break;
        case 'V':
          commands.push(['L', x, values[0]!]);
          break;
        case 'C':
          commands.push(['C', ...values]);
          break;
        case 'Q': {
          // A quadratic curve is the cubic with control points two thirds of the way along.
          const [qx, qy, ex, ey] = values as [number, number, number, number];
          commands.push([
            'C',
            x + ((qx - x) * 2) / 3,
            y + ((qy - y) * 2) / 3,
            ex + ((qx - ex) * 2) / 3,
            ey + ((qy - ey) * 2) / 3,
            ex,
            ey,
          ]);
          break;
        }
        default:
          // Z: ASS closes every shape itself.
          break;
      }
    });
  return commands;
}

function hexColor(fill: string): string {
  const value = fill.trim();
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toUpperCase();
  if (/^#[0-9a-f]{3}$/i.test(value)) {
    return `#${[...value.slice(1)].map((c) => c + c).join('')}`.toUpperCase();
  }
  if (value === 'black') return '#000000';
  if (value === 'white') return '#FFFFFF';
  throw new Error(`emoji SVG fill "${fill}" is not a colour kept`);
}

/**
 * ASS events' text drawing the emoji `size` pixels square with its top-left corner at (x, y):
 * one text per colour layer. Each drawing starts with moves to both corners of the square, so
 * libass aligns every layer on the same box, and uses `\p3` (quarter pixels) for smooth curves.
 */
export function emojiDrawingTexts(emoji: string, x: number, y: number, size: number): string[] {
  const scale = (size / EMOJI_UNITS) * 4;
  const n = (value: number) => String(Math.round(value * scale));
  return emojiLayers(emoji).map((layer) => {
    const [r, g, b] = [1, 3, 5].map((at) => layer.color.slice(at, at + 2));
    const body = layer.commands
      .map((command) => {
        const [kind, ...values] = command;
        const points = values.map(n).join(' ');
        return `${kind === 'M' ? 'm' : kind === 'L' ? 'l' : 'b'} ${points}`;
      })
      .join(' ');
    const corner = n(EMOJI_UNITS);
    return `{\\an7\\pos(${Math.round(x)},${Math.round(y)})\\bord0\\shad0\\1a&H00&\\1c&H${b}${g}${r}&\\p3}m 0 0 m ${corner} ${corner} ${body}{\\p0}`;
  });
}
