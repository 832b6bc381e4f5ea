import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  makeTestVideo,
  serveFiles,
  synthesizeSpeech,
  type ServedFiles,
} from '@moments/media/testing';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { startMomentsServer, type RunningMomentsServer } from './server';
import { ensureWebBuild } from './webBuild';

export interface TalkStage {
  server: RunningMomentsServer;
  browser: Browser;
  /** Address of the talk video on the local file server (the server may fetch it). */
  videoUrl: string;
  /** Folder holding the talk video (and its speech) on this machine. */
  mediaDir: string;
  close(): Promise<void>;
}

/**
 * The stage of an e2e test that runs the real pipeline: a talk spoken by festival from `text`,
 * wrapped into `fileName` and served on 127.0.0.1, a server allowed to fetch it, the web build and
 * Chromium, all prepared at once.
 */
export async function startTalkStage(
  text: string,
  fileName: string,
  env: Record<string, string> = {},
): Promise<TalkStage> {
  const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-e2e-talk-'));
  const wav = path.join(mediaDir, 'talk.wav');
  const [, server, browser] = await Promise.all([
    ensureWebBuild(),
    startMomentsServer({ MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1', ...env }),
    launchChromium(),
    synthesizeSpeech(text, wav, { engine: 'festival' }).then(() =>
      makeTestVideo(path.join(mediaDir, fileName), { audio: wav }),
    ),
  ]);
  const served: ServedFiles = await serveFiles(mediaDir);
  return {
    server,
    browser,
    videoUrl: `${served.url}/${fileName}`,
    mediaDir,
    async close() {
      await browser.close();
      await server.stop();
      await served.close();
      await fs.rm(mediaDir, { recursive: true, force: true });
    },
  };
}
