/**
 * Footage of the kinds reframing meets, made with ffmpeg at test or bench time from real photos
 * (the demo images that ship inside the @vladmandic/human npm package): one speaker moving
 * about, two people sitting apart (either may talk: the mouth opens with the sound), a slide
 * talk with the speaker in a corner inset, a wide shot of a crowd, and a cut mix of them all.
 * The sound is syllable-like bursts of a voiced tone whenever someone talks, so speech energy
 * and mouth movement line up as in real speech.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runFfmpeg } from '../../src/ffmpeg/index.js';
import { withMediaCache } from './media-cache.js';

export type FootageKind = 'speaker' | 'two_people' | 'slides' | 'wide' | 'mixed';

export interface FootageOptions {
  durationSec: number;
  width?: number;
  height?: number;
  fps?: number;
  /**
   * Who talks in `two_people` footage: `left`, `right`, `both`, or `alternate` (left, then
   * right, `turnSec` each). Default `alternate`.
   */
  talker?: 'left' | 'right' | 'both' | 'alternate';
  /** Length of one speaker's turn for `alternate`. Default 6 s. */
  turnSec?: number;
  /** x264 preset of the written file. Default `ultrafast` (tests); benches may want `veryfast`. */
  preset?: string;
  /** A recording to use as the sound (e.g. synthetic speech) instead of the syllable tone. */
  audio?: string;
}

export interface Footage {
  file: string;
  /** The three body lines of the slide (for OCR checks), on `slides` footage. */
  slideLines: string[];
  /** Times of the hard cuts, on `mixed` footage. */
  cutsSec: number[];
}

/** A face photo inside Human's demo screenshot: where its 150 px square sits, where the mouth is. */
interface FacePhoto {
  cropX: number;
  /** Mouth centre in the 300 px head the square is scaled to. */
  mouthX: number;
  mouthY: number;
}

/** The face thumbnails along the bottom of `assets/screenshot-facedetect.jpg` (each 150x150). */
const FACES: Record<'man' | 'woman', FacePhoto> = {
  man: { cropX: 8, mouthX: 150, mouthY: 186 },
  woman: { cropX: 164, mouthX: 128, mouthY: 186 },
};
const FACE_ROW_Y = 345;
const HEAD = 300;
/** How far the jaw drops, in pixels of the 300 px head, at a syllable's loudest. */
const JAW_DROP = 9;
/** Syllables per second of the talking sound and mouth (not a divisor of the 4 fps sampling). */
const SYLLABLE_HZ = 3;

export const SLIDE_LINES = [
  'Revenue grew in every region',
  'Costs fell by a third since May',
  'Hiring opens again in autumn',
];
const SLIDE_TITLE = 'Quarterly results';

/** The folder of Human's demo images, or undefined when the package is not installed. */
export function humanAssetsDir(): string | undefined {
  try {
    const main = createRequire(import.meta.url).resolve('@vladmandic/human');
    const assets = join(dirname(dirname(main)), 'assets');
    return existsSync(join(assets, 'screenshot-facedetect.jpg')) ? assets : undefined;
  } catch {
    return undefined; // not installed: the callers skip with a message
  }
}

/** A font file drawtext can use for slides (Debian's Noto Sans, which the captions need too). */
export function slideFontFile(): string | undefined {
  return [
    '/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf',
    '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  ].find((file) => existsSync(file));
}

/**
 * Writes footage of `kind` to `out` (H.264 + AAC, 1920x1080 at 25 fps by default) and says what
 * is in it.
 */
export async function makeFootage(
  kind: FootageKind,
  out: string,
  options: FootageOptions,
): Promise<Footage> {
  const assets = humanAssetsDir();
  if (!assets) throw new Error('footage needs the demo images of @vladmandic/human');
  const font = slideFontFile();
  if ((kind === 'slides' || kind === 'mixed') && !font) {
    throw new Error('slide footage needs a Noto Sans or DejaVu font');
  }
  const screenshot = join(assets, 'screenshot-facedetect.jpg');
  const crowd = join(assets, 'samples.jpg');
  const recipe = {
    maker: import.meta.url,
    args: ['footage', kind, options],
    inputs: [screenshot, crowd, font, options.audio],
  };
  const footage = await withMediaCache(recipe, out, () =>
    writeFootage(kind, out, options, { screenshot, crowd, font }),
  );
  return { ...footage, file: out };
}

async function writeFootage(
  kind: FootageKind,
  out: string,
  options: FootageOptions,
  { screenshot, crowd, font }: { screenshot: string; crowd: string; font: string | undefined },
): Promise<Footage> {
  const width = options.width ?? 1920;
  const height = options.height ?? 1080;
  const fps = options.fps ?? 25;
  const d = options.durationSec;
  const talk = talkGates(options);

  const scene = new SceneBuilder(width, height, fps, d);
  // Cuts as an editor makes them: speaker, the two of them, the slide, the room, back.
  const cutsSec =
    kind === 'mixed' ? [1, 2, 3, 4].map((i) => Math.round((i * d * 100) / 5) / 100) : [];
  const video =
    kind === 'speaker'
      ? scene.speaker(talk.always)
      : kind === 'two_people'
        ? scene.twoPeople(talk.left, talk.right)
        : kind === 'slides'
          ? scene.slides(font!, talk.always)
          : kind === 'wide'
            ? scene.wide()
            : scene.mixed(font!, talk, cutsSec);
  const speaking = kind === 'wide' ? '0' : kind === 'two_people' ? talk.any : talk.always;
  await runFfmpeg(
    [
      ...['-loop', '1', '-framerate', String(fps), '-i', screenshot],
      ...['-loop', '1', '-framerate', String(fps), '-i', crowd],
      ...(options.audio
        ? ['-i', options.audio]
        : ['-f', 'lavfi', '-i', `sine=frequency=170:sample_rate=48000:duration=${d}`]),
      '-filter_complex',
      `${video.graph};[${video.out}]null[v];[2:a]` +
        (options.audio
          ? 'apad,aresample=48000,'
          : `volume='0.02+0.98*${speaking}*${syllable()}':eval=frame,`) +
        'aformat=channel_layouts=stereo[a]',
      ...['-map', '[v]', '-map', '[a]', '-t', String(d), '-r', String(fps)],
      ...['-c:v', 'libx264', '-preset', options.preset ?? 'ultrafast', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-b:a', '96k', '-y', out],
    ],
    { timeoutMs: Math.max(120_000, d * 10_000) },
  );
  return {
    file: out,
    slideLines: kind === 'slides' || kind === 'mixed' ? SLIDE_LINES : [],
    cutsSec,
  };
}

/** Loudness of the talking sound and opening of the mouth at `t`, 0 to 1: syllables. */
function syllable(): string {
  return `abs(sin(PI*${SYLLABLE_HZ}*t))`;
}

/** Expressions of t, 1 while someone talks, for each talker setting. */
function talkGates(options: FootageOptions) {
  const turn = options.turnSec ?? 6;
  // Short breaths between phrases, as in speech.
  const phrases = 'lt(mod(t,3),2.6)';
  const leftTurn = `lt(mod(t,${2 * turn}),${turn})`;
  const talker = options.talker ?? 'alternate';
  const left =
    talker === 'left' || talker === 'both'
      ? phrases
      : talker === 'alternate'
        ? `${phrases}*${leftTurn}`
        : '0';
  const right =
    talker === 'right' || talker === 'both'
      ? phrases
      : talker === 'alternate'
        ? `${phrases}*(1-${leftTurn})`
        : '0';
  return { left, right, always: phrases, any: `min(1,${left}+${right})` };
}

/** A piece of filtergraph and the label of its output. */
interface Piece {
  graph: string;
  out: string;
}

/**
 * Filtergraph pieces; input 0 is the face screenshot, input 1 the crowd photo (ffmpeg decodes an
 * input once for every piece that reads it).
 */
class SceneBuilder {
  private label = 0;
  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly fps: number,
    private readonly durationSec: number,
  ) {}

  private next(prefix: string): string {
    return `${prefix}${this.label++}`;
  }

  /** A dim, blurred room behind the people (the crowd photo, out of focus). */
  private room(): Piece {
    const out = this.next('room');
    return {
      out,
      graph:
        `[1:v]crop=1280:700:0:300,scale=${this.width}:${this.height},gblur=sigma=18,` +
        `eq=brightness=-0.18:saturation=0.6,format=yuv420p[${out}]`,
    };
  }

  /**
   * A head of `size` px whose jaw drops with `talking` syllables: the lower face is moved down
   * over a dark mouth, as a mouth opens.
   */
  private head(face: FacePhoto, size: number, talking: string): Piece {
    const out = this.next('head');
    const raw = this.next('raw');
    const jaw = this.next('jaw');
    const jawX = face.mouthX - 60;
    return {
      out,
      graph:
        `[0:v]crop=150:150:${face.cropX}:${FACE_ROW_Y},scale=${HEAD}:${HEAD},split[${raw}][${jaw}src];` +
        `[${jaw}src]crop=120:${HEAD - face.mouthY - 4}:${jawX}:${face.mouthY + 2}[${jaw}];` +
        `[${raw}]drawbox=x=${face.mouthX - 28}:y=${face.mouthY - 2}:w=56:h=${JAW_DROP + 4}:color=0x3a1414:t=fill[${raw}m];` +
        `[${raw}m][${jaw}]overlay=x=${jawX}:y='${face.mouthY + 2}+${JAW_DROP}*${talking}*${syllable()}'` +
        `,scale=${size}:${size}[${out}]`,
    };
  }

  speaker(talking: string): Piece {
    const out = this.next('speaker');
    const room = this.room();
    const head = this.head(FACES.man, Math.round(this.height * 0.42), talking);
    // Walks across half the frame and back, leaning a little up and down.
    const x = `${Math.round(this.width * 0.22)}+${Math.round(this.width * 0.4)}*(0.5-0.5*cos(2*PI*t/12))`;
    const y = `${Math.round(this.height * 0.3)}+${Math.round(this.height * 0.03)}*sin(2*PI*t/5)`;
    return {
      out,
      graph:
        `${room.graph};${head.graph};[${room.out}][${head.out}]overlay=x='${x}':y='${y}',` +
        `noise=alls=5:allf=t,format=yuv420p[${out}]`,
    };
  }

  twoPeople(left: string, right: string): Piece {
    const out = this.next('two');
    const size = Math.round(this.height * 0.36);
    const room = this.room();
    const a = this.head(FACES.man, size, left);
    const b = this.head(FACES.woman, size, right);
    const both = this.next('ab');
    // Sitting apart: one in each outer fifth, swaying slightly as people do.
    const ax = `${Math.round(this.width * 0.06)}+8*sin(2*PI*t/7)`;
    const bx = `${Math.round(this.width * 0.94 - size)}+8*sin(2*PI*t/6)`;
    const y = Math.round(this.height * 0.32);
    return {
      out,
      graph:
        `${room.graph};${a.graph};${b.graph};[${room.out}][${a.out}]overlay=x='${ax}':y=${y}[${both}];` +
        `[${both}][${b.out}]overlay=x='${bx}':y=${y + 10},noise=alls=5:allf=t,format=yuv420p[${out}]`,
    };
  }

  slides(font: string, talking: string): Piece {
    const out = this.next('slides');
    const w = this.width;
    const hgt = this.height;
    const text = (value: string, size: number, y: number, color: string) =>
      `drawtext=fontfile=${font}:text='${value}':fontsize=${size}:fontcolor=${color}:x=${Math.round(w * 0.08)}:y=${y}`;
    const slide = this.next('slide');
    const slideGraph =
      `color=c=white:s=${w}x${hgt}:r=${this.fps}:d=${this.durationSec},` +
      [
        text(SLIDE_TITLE, Math.round(hgt * 0.085), Math.round(hgt * 0.1), '0x1f3a93'),
        `drawbox=x=${Math.round(w * 0.08)}:y=${Math.round(hgt * 0.22)}:w=${Math.round(w * 0.5)}:h=6:color=0x1f3a93:t=fill`,
        ...SLIDE_LINES.map((line, i) =>
          text(line, Math.round(hgt * 0.06), Math.round(hgt * (0.33 + i * 0.13)), '0x202020'),
        ),
      ].join(',') +
      `[${slide}]`;
    // The speaker's camera in the bottom-right corner, as conference recordings put it.
    const insetW = Math.round(w * 0.22);
    const insetH = Math.round((insetW * 9) / 16);
    const headSize = Math.round(insetH * 0.8);
    const head = this.head(FACES.man, headSize, talking);
    const insetBg = this.next('insetbg');
    const inset = this.next('inset');
    return {
      out,
      graph:
        `${slideGraph};color=c=0x2b2f3a:s=${insetW}x${insetH}:r=${this.fps}:d=${this.durationSec}[${insetBg}];` +
        `${head.graph};[${insetBg}][${head.out}]overlay=x='${Math.round((insetW - headSize) / 2)}+6*sin(2*PI*t/4)'` +
        `:y=${insetH - headSize}[${inset}];` +
        `[${slide}][${inset}]overlay=x=${w - insetW - Math.round(w * 0.02)}:y=${hgt - insetH - Math.round(hgt * 0.03)},` +
        `noise=alls=2:allf=t,format=yuv420p[${out}]`,
    };
  }

  wide(): Piece {
    const out = this.next('wide');
    // The crowd photo, slowly panned as a camera on a stage would.
    return {
      out,
      graph:
        `[1:v]crop=1100:620:'90+80*sin(2*PI*t/${Math.max(4, this.durationSec)})':320,` +
        `scale=${this.width}:${this.height},noise=alls=4:allf=t,format=yuv420p[${out}]`,
    };
  }

  mixed(font: string, talk: ReturnType<typeof talkGates>, cutsSec: number[]): Piece {
    const out = this.next('mixed');
    const parts = [
      this.speaker(talk.always),
      this.twoPeople(talk.left, talk.right),
      this.slides(font, talk.always),
      this.wide(),
      this.speaker(talk.always),
    ];
    const edges = [0, ...cutsSec, this.durationSec];
    const trimmed = parts.map((part, i) => {
      const label = this.next('part');
      return {
        out: label,
        // Each shot keeps its own clock (the speaker walks on where the last one stopped).
        graph: `${part.graph};[${part.out}]trim=start=${edges[i]}:end=${edges[i + 1]},setpts=PTS-STARTPTS,setsar=1[${label}]`,
      };
    });
    return {
      out,
      graph:
        trimmed.map((part) => part.graph).join(';') +
        `;${trimmed.map((part) => `[${part.out}]`).join('')}concat=n=${parts.length}:v=1:a=0[${out}]`,
    };
  }
}
