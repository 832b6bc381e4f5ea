/** `node --import tsx bench/highlights/generate.ts`: speaks and transcribes every talk once (cached). */
import { loadTalks, spokenTalk } from './talks';

for (const talk of await loadTalks()) {
  const started = performance.now();
  const spoken = await spokenTalk(talk);
  const end = spoken.spans[spoken.spans.length - 1]!.endMs;
  console.log(
    `${talk.name}: ${talk.voice}, ${(end / 60000).toFixed(1)} min, ${talk.paragraphs.length} paragraphs ` +
      `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
}
