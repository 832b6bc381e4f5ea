/**
 * What a sampled frame shows besides faces, measured on the analysis frame (640 px wide RGB) in a
 * few milliseconds: how much of it is flat computer graphics and sharp two-tone text (a slide or a
 * screen share), how much it moved since the last sample, and a coarse grid of brightness and
 * detail from which the background under the captions is judged for any layout.
 */

/** The grid the frame is summarised on: 16 x 9 cells (40 x 40 px at 640x360). */
const SCENE_GRID = { columns: 16, rows: 9 } as const;

export interface SceneSample {
  /** Share of cells that are flat (one colour, as slide backgrounds are; cameras add texture). */
  flat: number;
  /** Share of cells of sharp two-tone content: text or line graphics on a plain ground. */
  graphic: number;
  /** Mean per-byte difference from the previous sample of the same stretch (0 for the first). */
  motion: number;
  /**
   * Base64 of 2 x columns x rows bytes: the mean brightness (0-255) of each cell, row by row,
   * then each cell's detail (standard deviation of brightness, capped at 255).
   */
  grid: string;
}

/** A cell whose brightness varies less than this (std, 0-255) is flat. */
const FLAT_STD = 3.5;
/** Text and line graphics: two tones at least this far apart... */
const GRAPHIC_CONTRAST = 70;
/** ...and this share of the cell's pixels near one of the two, little in between. */
const GRAPHIC_TWO_TONE = 0.86;
/** How near (brightness levels) a pixel must be to the cell's darkest or brightest tone. */
const TONE_BAND = 28;
/** ...with the tone changing this often along a row on average (letters; an edge changes once). */
const GRAPHIC_CHANGES_PER_ROW = 2;
/** Every STEP-th row is read: half the reads, the same statistics. */
const STEP = 2;

/** The scene statistics of one packed RGB24 frame. */
export function measureScene(
  rgb: Uint8Array,
  width: number,
  height: number,
  motion: number,
): SceneSample {
  const { columns, rows } = SCENE_GRID;
  const cells = columns * rows;
  const means = new Uint8Array(cells);
  const details = new Uint8Array(cells);
  let flat = 0;
  let graphic = 0;
  const values: number[] = [];
  const rowStarts: number[] = [];
  for (let row = 0; row < rows; row++) {
    const y0 = Math.floor((row * height) / rows);
    const y1 = Math.floor(((row + 1) * height) / rows);
    for (let column = 0; column < columns; column++) {
      const x0 = Math.floor((column * width) / columns);
      const x1 = Math.floor(((column + 1) * width) / columns);
      values.length = 0;
      rowStarts.length = 0;
      let sum = 0;
      let sumSquares = 0;
      let min = 255;
      let max = 0;
      for (let y = y0; y < y1; y += STEP) {
        rowStarts.push(values.length);
        let offset = (y * width + x0) * 3;
        for (let x = x0; x < x1; x++, offset += 3) {
          const luma = (rgb[offset]! * 77 + rgb[offset + 1]! * 150 + rgb[offset + 2]! * 29) >> 8;
          values.push(luma);
          sum += luma;
          sumSquares += luma * luma;
          if (luma < min) min = luma;
          if (luma > max) max = luma;
        }
      }
      const count = values.length || 1;
      const mean = sum / count;
      const std = Math.sqrt(Math.max(0, sumSquares / count - mean * mean));
      const cell = row * columns + column;
      means[cell] = Math.round(mean);
      details[cell] = Math.min(255, Math.round(std));
      if (std < FLAT_STD) flat++;
      else if (
        max - min >= GRAPHIC_CONTRAST &&
        twoToneShare(values, min, max) >= GRAPHIC_TWO_TONE &&
        toneChangesPerRow(values, rowStarts, min, max) >= GRAPHIC_CHANGES_PER_ROW
      ) {
        graphic++;
      }
    }
  }
  const grid = new Uint8Array(cells * 2);
  grid.set(means, 0);
  grid.set(details, cells);
  return {
    flat: round3(flat / cells),
    graphic: round3(graphic / cells),
    motion: Math.round(motion * 10) / 10,
    grid: Buffer.from(grid).toString('base64'),
  };
}

/** Share of values near the darkest or the brightest tone of a cell (text on a plain ground). */
function twoToneShare(values: readonly number[], min: number, max: number): number {
  let near = 0;
  for (const value of values) {
    if (value - min <= TONE_BAND || max - value <= TONE_BAND) near++;
  }
  return near / (values.length || 1);
}

/** How often the tone flips between dark and bright along a row of the cell, on average. */
function toneChangesPerRow(
  values: readonly number[],
  rowStarts: readonly number[],
  min: number,
  max: number,
): number {
  let changes = 0;
  for (let r = 0; r < rowStarts.length; r++) {
    const end = rowStarts[r + 1] ?? values.length;
    let tone = 0; // -1 dark, 1 bright, 0 not yet seen
    for (let i = rowStarts[r]!; i < end; i++) {
      const value = values[i]!;
      const now = value - min <= TONE_BAND ? -1 : max - value <= TONE_BAND ? 1 : 0;
      if (now !== 0 && tone !== 0 && now !== tone) changes++;
      if (now !== 0) tone = now;
    }
  }
  return changes / (rowStarts.length || 1);
}

/** Brightness and detail of the grid cell under a point of the frame (fractions 0-1). */
export function sceneCellAt(
  grid: Uint8Array,
  fx: number,
  fy: number,
): { brightness: number; detail: number } {
  const { columns, rows } = SCENE_GRID;
  const column = Math.min(columns - 1, Math.max(0, Math.floor(fx * columns)));
  const row = Math.min(rows - 1, Math.max(0, Math.floor(fy * rows)));
  const cell = row * columns + column;
  return { brightness: grid[cell]!, detail: grid[columns * rows + cell]! };
}

/** The grid bytes of a sample (decoded once per use; a few hundred bytes). */
export function sceneGrid(sample: SceneSample): Uint8Array {
  return new Uint8Array(Buffer.from(sample.grid, 'base64'));
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
