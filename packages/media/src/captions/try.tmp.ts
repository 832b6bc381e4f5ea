import { writeFileSync } from 'node:fs';
import { buildCaptionsAss, burnCaptions, CAPTION_TEMPLATES, captionsFilter } from './index';
import { runFfmpeg } from '../ffmpeg/index';
const words = 'Ask not what your country can do for you, ask what you can do for your country.'.split(' ')
  .map((text, i) => ({ text, startMs: 200 + i * 220, endMs: 200 + i * 220 + 180 }));
await runFfmpeg(['-f','lavfi','-i','color=c=0x3050a0:s=720x1280:d=4:r=25','-c:v','libx264','-preset','ultrafast','/tmp/cap/bg.mp4']);
for (const t of CAPTION_TEMPLATES) {
  const ass = buildCaptionsAss({ words, template: t.id, display: 'source', width: 720, height: 1280, language: 'en' });
  writeFileSync(`/tmp/cap/${t.id}.ass`, ass);
  await runFfmpeg(['-i','/tmp/cap/bg.mp4','-ss','1.1','-frames:v','1','-vf', captionsFilter(`/tmp/cap/${t.id}.ass`), `/tmp/cap/${t.id}.png`]);
}
console.log(captionsFilter('/tmp/a b/c:d\'e,f[g].ass'));
