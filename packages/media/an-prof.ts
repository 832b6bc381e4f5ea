import { analyzeSubjects } from './src/reframe/analyze.ts';
if (process.env.WITH_BENCH) await import('../../bench/speed.bench.ts');
const w = performance.now();
await analyzeSubjects(process.env.FIRST ?? '/tmp/prof/face-source.mp4', { startMs: 0, endMs: process.env.FIRST ? 60000 : 2000 });
console.log('first', ((performance.now() - w) / 1000).toFixed(1));
const t = performance.now();
const r = await analyzeSubjects('/tmp/prof/face-source.mp4', { startMs: 0, endMs: 60000 });
const s = (performance.now() - t) / 1000;
console.log(process.env.FIRST ?? '-', (r.frames.length / s).toFixed(1), 'fps');
