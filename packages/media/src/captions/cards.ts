/** How long a brand kit's intro or outro card shows. */
export const BRAND_CARD_MS = 1500;

export interface BrandCards {
  introText: string | null;
  outroText: string | null;
  /** The clip's length: the outro ends with it. */
  durationMs: number;
  width: number;
  height: number;
  /** The card text's colour, `#RRGGBB` (the kit's text colour); white by default. */
  textColor?: string;
}

const two = (value: number) => String(value).padStart(2, '0');
function assTime(ms: number): string {
  const total = Math.max(0, Math.round(ms / 10));
  return `${Math.floor(total / 360000)}:${two(Math.floor(total / 6000) % 60)}:${two(Math.floor(total / 100) % 60)}.${two(total % 100)}`;
}
const escapeText = (text: string) =>
  text.replace(/\\/g, '\\\u2060').replace(/\{/g, '(').replace(/\}/g, ')').replace(/\s+/g, ' ');
function assColor(hex: string): string {
  const value = hex.replace('#', '').toUpperCase();
  return `&H${value.slice(4, 6)}${value.slice(2, 4)}${value.slice(0, 2)}&`;
}

/**
 * A kit's intro and outro cards added to a caption document: a dark card over the whole frame
 * with the text in the middle, for the first and the last BRAND_CARD_MS (the outro starts no
 * sooner than the intro ends). Drawn by the same ASS as the captions, so the editor's preview
 * shows them where the export burns them in. The text takes the captions' main font.
 */
export function withBrandCards(ass: string, cards: BrandCards): string {
  const texts = [cards.introText, cards.outroText];
  if (!texts.some(Boolean)) return ass;
  const font = /^Style:\s*Main,([^,]+),/m.exec(ass)?.[1]?.trim() ?? 'Noto Sans';
  const { width, height } = cards;
  const size = Math.round(Math.min(width, height) * 0.075);
  const style = `Style: BrandCard,${font},${size},&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,0,0,5,${Math.round(width * 0.08)},${Math.round(width * 0.08)},0,1`;
  const color = assColor(cards.textColor?.slice(0, 7) ?? '#FFFFFF');
  const events: string[] = [];
  const card = (startMs: number, endMs: number, text: string) => {
    if (endMs - startMs < 100) return;
    const [from, to] = [assTime(startMs), assTime(endMs)];
    events.push(
      `Dialogue: 20,${from},${to},BrandCard,,0,0,0,,{\\an7\\pos(0,0)\\p1\\bord0\\shad0\\1c&H101010&\\1a&H18&}m 0 0 l ${width} 0 ${width} ${height} 0 ${height}{\\p0}`,
      `Dialogue: 21,${from},${to},BrandCard,,0,0,0,,{\\an5\\pos(${Math.round(width / 2)},${Math.round(height / 2)})\\1c${color}}${escapeText(text)}`,
    );
  };
  const introEnd = Math.min(BRAND_CARD_MS, cards.durationMs);
  if (cards.introText) card(0, introEnd, cards.introText);
  if (cards.outroText) {
    card(
      Math.max(cards.introText ? introEnd : 0, cards.durationMs - BRAND_CARD_MS),
      cards.durationMs,
      cards.outroText,
    );
  }
  const lines = ass.split('\n');
  const lastStyle = lines.map((line) => line.startsWith('Style:')).lastIndexOf(true);
  lines.splice(lastStyle + 1, 0, style);
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return [...lines, ...events, ''].join('\n');
}
