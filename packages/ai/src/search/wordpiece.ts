/** BERT uncased tokenisation (basic split + WordPiece), as all-MiniLM-L6-v2 expects. */
export class WordPieceTokenizer {
  private readonly ids: Map<string, number>;
  readonly clsId: number;
  readonly sepId: number;
  readonly unkId: number;

  constructor(vocabText: string) {
    this.ids = new Map(
      vocabText
        .split('\n')
        .map((line) => line.replace(/\r$/, ''))
        .map((token, id) => [token, id] as const),
    );
    const id = (token: string) => {
      const value = this.ids.get(token);
      if (value === undefined) throw new Error(`vocabulary lacks ${token}`);
      return value;
    };
    this.clsId = id('[CLS]');
    this.sepId = id('[SEP]');
    this.unkId = id('[UNK]');
  }

  private basicTokens(text: string): string[] {
    const normalised = text
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '')
      .replace(/[\p{Cc}\p{Cf}]/gu, ' ');
    // Punctuation and CJK ideographs are tokens of their own.
    return normalised
      .replace(/([\p{P}\p{S}\u4e00-\u9fff\u3400-\u4dbf])/gu, ' $1 ')
      .split(/\s+/)
      .filter(Boolean);
  }

  private wordPieces(word: string): number[] {
    if (word.length > 100) return [this.unkId];
    const pieces: number[] = [];
    let start = 0;
    while (start < word.length) {
      let end = word.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + word.slice(start, end);
        found = this.ids.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.unkId];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }

  /** Token ids with [CLS] and [SEP], truncated to maxLength. */
  encode(text: string, maxLength = 128): number[] {
    const ids = [this.clsId];
    for (const word of this.basicTokens(text)) {
      ids.push(...this.wordPieces(word));
      if (ids.length >= maxLength - 1) break;
    }
    return [...ids.slice(0, maxLength - 1), this.sepId];
  }
}
