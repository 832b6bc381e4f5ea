import { rm, stat, writeFile } from 'node:fs/promises';
import { fontFilePath, fontForLanguage } from '../captions/fonts.js';
import { MediaError } from '../errors/index.js';
import { runFfmpeg } from '../ffmpeg/index.js';

/** Characters a cover title line holds before it wraps (big type, read on a phone's grid). */
const LINE_CHARS = 18;
const MAX_LINES = 4;
/** Covers are this wide (the height keeps the clip's shape). */
const COVER_WIDTH = 720;

/** A title broken into at most four short lines at spaces (a long word keeps its line). */
export function coverLines(title: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of title.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean)) {
    if (line && Array.from(`${line} ${word}`).length > LINE_CHARS) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= MAX_LINES) return lines;
  const kept = lines.slice(0, MAX_LINES);
  kept[MAX_LINES - 1] = `${kept[MAX_LINES - 1]}…`;
  return kept;
}

/**
 * A clip's cover: `image` (its best frame) as a JPEG, with `title` drawn big over its upper part on
 * a dark box when there is one (the hook title the clip opens with). Written with ffmpeg's
 * drawtext in the caption font for the title's script.
 */
export async function drawCover(
  image: string,
  outJpg: string,
  options: { title?: string | null; signal?: AbortSignal } = {},
): Promise<void> {
  const title = options.title?.trim();
  // One size for every cover, so the title's type is the same size on every clip.
  const filters: string[] = [`scale=${COVER_WIDTH}:-2`];
  const textFile = `${outJpg}.title.txt`;
  if (title) {
    const font = fontFilePath(fontForLanguage(title));
    if (!font)
      throw new MediaError('TOOL_MISSING', 'No font is installed to draw the cover title.');
    await writeFile(textFile, coverLines(title).join('\n'), 'utf8');
    filters.push(
      [
        `drawtext=fontfile='${font.replace(/'/g, "'\\''")}'`,
        `textfile='${textFile.replace(/'/g, "'\\''")}'`,
        'fontsize=64',
        'fontcolor=white',
        'line_spacing=12',
        'box=1',
        'boxcolor=black@0.6',
        'boxborderw=24',
        'x=(w-text_w)/2',
        'y=h*0.14',
      ].join(':'),
    );
  }
  try {
    await runFfmpeg(
      [
        '-i',
        image,
        '-vf',
        filters.join(','),
        '-frames:v',
        '1',
        '-q:v',
        '3',
        '-update',
        '1',
        outJpg,
      ],
      { signal: options.signal, timeoutMs: 60_000, threads: 1 },
    );
  } finally {
    await rm(textFile, { force: true });
  }
  // No file (stat fails): ffmpeg wrote no picture, which the error below says.
  if (!(await stat(outJpg).catch(() => undefined))?.size) {
    throw new MediaError('NOT_A_VIDEO', 'No cover could be made from the clip.');
  }
}
