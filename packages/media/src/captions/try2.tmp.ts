import { writeFileSync } from 'node:fs';
import { buildCaptionsAss, captionsFilter, splitIntoWords } from './index';
import { runFfmpeg } from '../ffmpeg/index';
const samples: [string, string][] = [
  ['ar', 'مرحبا بكم في هذا الفيديو الرائع عن الذكاء الاصطناعي 2024؟'],
  ['he', 'שלום לכולם וברוכים הבאים לסרטון החדש שלנו!'],
  ['hi', 'नमस्ते दोस्तों आज हम कृत्रिम बुद्धिमत्ता के बारे में बात करेंगे'],
  ['th', 'สวัสดีครับทุกคนวันนี้เราจะมาพูดคุยเกี่ยวกับปัญญาประดิษฐ์'],
  ['zh', '大家好今天我们来聊一聊人工智能的未来发展'],
  ['ja', 'こんにちは皆さん今日は人工知能について話しましょう'],
  ['ko', '안녕하세요 여러분 오늘은 인공지능에 대해 이야기해 봅시다'],
];
const outs: string[] = [];
for (const [lang, text] of samples) {
  const tokens = splitIntoWords(text, lang);
  console.log(lang, tokens.join('|'));
  const words = tokens.map((t, i) => ({ text: t, startMs: 100 + i * 150, endMs: 100 + i * 150 + 120 }));
  for (const template of ['karaoke', 'highlight_box'] as const) {
    const ass = buildCaptionsAss({ words, template, display: 'source', width: 720, height: 1280, language: lang });
    writeFileSync(`/tmp/cap/${lang}-${template}.ass`, ass);
    await runFfmpeg(['-i','/tmp/cap/bg.mp4','-ss','0.5','-frames:v','1','-vf', captionsFilter(`/tmp/cap/${lang}-${template}.ass`) + ',crop=iw:300:0:700', `/tmp/cap/${lang}-${template}.png`]);
    outs.push(`/tmp/cap/${lang}-${template}.png`);
  }
}
writeFileSync('/tmp/cap/list.txt', outs.join('\n'));
