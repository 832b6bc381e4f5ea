import JASSUB from 'jassub';
// Bundled with the app (no CDN): the worker is built by Vite, the wasm files are hashed assets.
import workerUrl from 'jassub/dist/worker/worker.js?worker&url';
import wasmUrl from 'jassub/dist/wasm/jassub-worker.wasm?url';
import modernWasmUrl from 'jassub/dist/wasm/jassub-worker-modern.wasm?url';

/** One caption document as POST /api/captions/preview returns it. */
export interface CaptionDocument {
  ass: string;
  /** The ASS canvas (the export frame). */
  width: number;
  height: number;
  /** Source time the document's zero stands for. */
  startMs: number;
  fonts: { family: string; url: string }[];
}

const absolute = (url: string) => new URL(url, window.location.href).href;

/**
 * libass in WebAssembly (JASSUB) drawing the exact ASS document the export burns in, on a canvas
 * laid over the player (design.md: preview equals export). The canvas is driven by hand with the
 * source video's time, because the frame shown is the export frame, not the source video's.
 */
export class CaptionOverlay {
  private readonly instance: JASSUB;
  private readonly loadedFonts = new Set<string>();
  private document: CaptionDocument;
  private lastTimeSec = 0;
  private destroyed = false;
  /** Resolves once the renderer runs; rejects when this browser cannot run it. */
  readonly ready: Promise<void>;

  constructor(canvas: HTMLCanvasElement, document: CaptionDocument) {
    this.document = document;
    const fontUrls = document.fonts.map((font) => absolute(font.url));
    fontUrls.forEach((url) => this.loadedFonts.add(url));
    this.instance = new JASSUB({
      canvas,
      subContent: document.ass,
      workerUrl,
      wasmUrl,
      modernWasmUrl,
      fonts: fontUrls,
      availableFonts: Object.fromEntries(
        document.fonts.map((font) => [font.family.toLowerCase(), absolute(font.url)]),
      ),
      // Never look fonts up online: the server names every font the document uses.
      queryFonts: false,
      timeOffset: -document.startMs / 1000,
    });
    this.ready = this.instance.ready.then(() => {
      // The worker swallows its own start-up errors and leaves `renderer` unset.
      if (!this.instance.renderer) throw new Error('The caption renderer did not start');
    });
  }

  /** Swaps in a new document (template, trim, aspect or text changed) and redraws. */
  async setDocument(next: CaptionDocument): Promise<void> {
    await this.ready;
    if (this.destroyed) return;
    const newFonts = next.fonts
      .map((font) => absolute(font.url))
      .filter((url) => !this.loadedFonts.has(url));
    newFonts.forEach((url) => this.loadedFonts.add(url));
    if (newFonts.length) await this.instance.renderer.addFonts(newFonts);
    await this.instance.renderer.setTrack(next.ass);
    this.document = next;
    this.instance.timeOffset = -next.startMs / 1000;
    await this.render(this.lastTimeSec, true);
  }

  /** Draws the captions of source time `timeSec`. */
  async render(timeSec: number, repaint = false): Promise<void> {
    this.lastTimeSec = timeSec;
    await this.ready;
    if (this.destroyed) return;
    await this.instance.manualRender(
      {
        mediaTime: timeSec,
        width: this.document.width,
        height: this.document.height,
        expectedDisplayTime: performance.now(),
      },
      repaint,
    );
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
    // Best effort: the page is leaving the editor; a renderer that fails to close is dropped anyway.
    await this.instance.destroy().catch(() => undefined);
  }
}
