/**
 * Held-out talks for the moment tests: written for the tests, not from the judge's cue
 * lists and not part of bench/highlights. `>> ` marks a paragraph a person would clip, `-- ` a
 * greeting, sponsor read or sign-off that must never rank in the top 3.
 */
import type { Transcript } from '../types';

export const HELD_OUT_TALKS: Record<string, string[]> = {
  bakery: [
    '-- Hey friends, good to have you here again. This one is brought to you by our sponsor, a payment terminal company, and the discount code is in the description.',
    'I opened a tiny bakery on a side street about four years ago. We sell bread, a few cakes, and coffee that is honestly only okay.',
    'Most mornings start at four. The ovens take a while to heat up, and the first loaves go in around five.',
    ">> People always ask what sells best. They guess croissants. It is day old bread. We sell yesterday's loaves at half price after two in the afternoon, and that shelf empties in twenty minutes. It brings in almost a fifth of our daily takings, from bread we used to throw away.",
    'The neighbourhood has changed a lot. There are more families now and fewer offices.',
    ">> The worst week we ever had was when the oven broke on a Friday. I called every repair person in town. Nobody could come before Tuesday. So I carried the dough to my sister's flat, baked in her little kitchen all night, and delivered the bread in a shopping trolley. Three customers still ask me about the trolley bread.",
    'We close on Mondays. That is when I do the accounts and order flour.',
    '>> If you want to open a small shop, rent is the number you must get right before anything else. Choose the cheaper street. A good product will bring people around the corner, but a high rent will eat you every single month, even in the months nobody comes.',
    'Our flour comes from a mill about forty minutes away.',
    '-- Okay, that is it for today. Thanks so much for watching, subscribe for more small business stories, and I will see you next week.',
  ],
  speaking: [
    '-- Good afternoon everyone, and welcome to the workshop. Coffee is at the back, and the slides will be emailed to you after the session.',
    'This afternoon is about speaking in front of a group, at work, at a wedding, wherever.',
    'Most of us were never taught how to do this. We learn it by being thrown in.',
    '>> Here is something that sounds wrong but works. The audience notices your nerves far less than you think. In one experiment, speakers rated their own anxiety at seven out of ten, while the people watching rated it at three. The shaking you feel inside mostly stays inside.',
    'We will do some short exercises later, in pairs, so nobody has to stand up alone.',
    ">> My first real talk was at my brother's wedding. I had written four pages. Halfway through the second page I looked up, saw my grandmother crying, and forgot every word. I said the only thing left in my head, which was, I love you all, please eat. It got the biggest laugh of the night, and it is the only line anyone remembers.",
    'Slides are useful for pictures and numbers. They are not a script.',
    '>> So prepare your first sentence and your last sentence word for word, and nothing else in between. Know them so well you could say them half asleep. The opening carries you past the fear, and the ending lets you stop cleanly instead of trailing off.',
    'Timing matters too. Shorter is almost always better.',
    '-- That is all for this session. Thank you all for coming, please fill in the feedback form, and have a lovely evening.',
  ],
};

/**
 * A transcript for paragraphs of text with word times from a steady speaking rate: short pauses between
 * sentences and longer ones between paragraphs, as a speaker leaves. Returns each paragraph's span.
 */
export function transcriptFromParagraphs(paragraphs: readonly string[]): {
  transcript: Transcript;
  paragraphs: { kind: 'highlight' | 'housekeeping' | 'body'; startMs: number; endMs: number }[];
} {
  const segments: Transcript['segments'] = [];
  const spans: { kind: 'highlight' | 'housekeeping' | 'body'; startMs: number; endMs: number }[] =
    [];
  let at = 400;
  for (const raw of paragraphs) {
    const kind = raw.startsWith('>> ')
      ? 'highlight'
      : raw.startsWith('-- ')
        ? 'housekeeping'
        : 'body';
    const text = raw.replace(/^(>>|--) /, '');
    const startMs = at;
    for (const sentence of text.match(/[^.!?]+[.!?]+/g) ?? [text]) {
      const words = sentence
        .trim()
        .split(/\s+/)
        .map((word) => {
          const lengthMs = 180 + 35 * word.length;
          const placed = { text: word, startMs: at, endMs: at + lengthMs, confidence: 0.95 };
          at += lengthMs + 60;
          return placed;
        });
      segments.push({
        startMs: words[0]!.startMs,
        endMs: words.at(-1)!.endMs,
        text: sentence.trim(),
        words,
      });
      at += 350;
    }
    spans.push({ kind, startMs, endMs: at - 410 });
    at += 1400;
  }
  return { transcript: { language: 'en', durationMs: at, segments }, paragraphs: spans };
}
