import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { ERROR_CODES, MAX_LOGO_SIDE } from '@moments/contract';
import { LogoImageError } from '@moments/media/logo';
import type { MediaRepository } from '../media/media.repository.js';
import { AppError } from '../../http/errors.js';

/** The widest logo kept: twice the widest it is ever drawn (half a 1080-pixel frame). */
const STORED_LOGO_WIDTH = 1080;

export interface LogoImage {
  /** A PNG file in the work folder, ready for storage. */
  file: string;
  width: number;
  height: number;
}

const invalidLogo = (message: string) => new AppError(ERROR_CODES.INVALID_LOGO, 422, message);

type LogoKind = 'png' | 'jpeg' | 'svg';

/** What the bytes are, by their own first bytes (never the name or the declared type). */
export function sniffLogo(bytes: Buffer): LogoKind | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head)) return 'svg';
  return null;
}

/**
 * Why an SVG is refused, or null for one that only draws: scripts, embedded HTML, event
 * handlers, entities and references to anything outside the document could run or fetch
 * something where the logo is drawn, so none is taken (the stored logo is a PNG anyway).
 */
export function unsafeSvgReason(svg: string): string | null {
  if (/<script[\s>/]/i.test(svg)) return 'The SVG has a script.';
  if (/<foreignObject[\s>/]/i.test(svg)) return 'The SVG embeds HTML (foreignObject).';
  if (/<!(DOCTYPE|ENTITY)/i.test(svg)) return 'The SVG declares entities.';
  if (/\son[a-z]+\s*=/i.test(svg)) return 'The SVG has event handlers.';
  if (/javascript:/i.test(svg)) return 'The SVG has a javascript: link.';
  for (const match of svg.matchAll(/(?:xlink:)?href\s*=\s*["']\s*([^"']*)["']/gi)) {
    if (!match[1]!.startsWith('#')) return 'The SVG refers to a file or address outside it.';
  }
  for (const match of svg.matchAll(/url\(\s*["']?\s*([^)"']*)/gi)) {
    if (!match[1]!.startsWith('#')) return 'The SVG refers to a file or address outside it.';
  }
  if (/@import/i.test(svg)) return 'The SVG imports a style sheet.';
  return null;
}

/**
 * A logo upload made into a PNG the export can overlay: PNG and JPEG are decoded in full by
 * ffmpeg (a file that only starts like an image fails here), a safe SVG is drawn by resvg with
 * no access to files, fonts or the network. Sides above MAX_LOGO_SIDE are refused, wide logos
 * are kept at STORED_LOGO_WIDTH.
 */
export async function readLogo(
  bytes: Buffer,
  workDir: string,
  media: Pick<MediaRepository, 'logoImage'>,
): Promise<LogoImage> {
  const kind = sniffLogo(bytes);
  if (!kind) throw invalidLogo('The logo is not a PNG, JPEG or SVG image.');
  await fs.mkdir(workDir, { recursive: true });
  const id = randomUUID();
  const input = path.join(workDir, `upload-${id}.${kind}`);
  const output = path.join(workDir, `logo-${id}.png`);
  try {
    if (kind === 'svg') {
      const svg = bytes.toString('utf8');
      const unsafe = unsafeSvgReason(svg);
      if (unsafe) throw invalidLogo(`${unsafe} Upload a plain drawing, a PNG or a JPEG.`);
      let png: Buffer;
      try {
        const probe = new Resvg(svg, { font: { loadSystemFonts: false } });
        if (probe.width > MAX_LOGO_SIDE || probe.height > MAX_LOGO_SIDE) {
          throw invalidLogo(`The logo is larger than ${MAX_LOGO_SIDE} pixels on a side.`);
        }
        const width = Math.min(STORED_LOGO_WIDTH, Math.max(1, Math.round(probe.width)));
        png = new Resvg(svg, {
          font: { loadSystemFonts: false },
          fitTo: { mode: 'width', value: width },
        })
          .render()
          .asPng();
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw invalidLogo('The SVG logo could not be drawn.');
      }
      await fs.writeFile(input, png);
    } else {
      await fs.writeFile(input, bytes);
    }
    let stored: { width: number; height: number };
    try {
      stored = await media.logoImage(input, output, {
        kind: kind === 'svg' ? 'png' : kind,
        maxSide: MAX_LOGO_SIDE,
        storedWidth: STORED_LOGO_WIDTH,
      });
    } catch (error) {
      if (error instanceof LogoImageError) throw invalidLogo(error.message);
      throw error;
    }
    return { file: output, ...stored };
  } catch (error) {
    await fs.rm(output, { force: true });
    throw error;
  } finally {
    await fs.rm(input, { force: true });
  }
}
