// Word lists behind the deterministic virality signals. Matching is on lower-cased word tokens;
// multi-word markers are matched on the lower-cased sentence text with word boundaries.

export const EMOTION_WORDS = new Set(
  `love loved adore hate hated fear feared afraid scared terrified terrifying horrified panic panicked cry cried
crying tears sobbing heartbroken devastated shattered ashamed shame guilty guilt proud pride furious angry rage
livid happy happiest thrilled ecstatic overjoyed joy grateful thankful lonely alone desperate hopeless hope
miserable depressed anxious nervous shocked shocking stunned amazing amazed incredible unbelievable insane crazy
awful terrible horrible worst best beautiful brutal painful pain hurt hurts broke broken miracle nightmare
disaster dream dreams embarrassing embarrassed humiliated regret regrets sorry scream screamed shaking trembling
laughed laughing hilarious wow`.split(/\s+/),
);

export const INTENSIFIERS = new Set(
  `absolutely completely totally literally utterly extremely incredibly seriously genuinely honestly truly deeply
insanely massively never always everything nothing everyone nobody`.split(/\s+/),
);

/** Bold-claim words that make an opening line land. */
export const CLAIM_WORDS = new Set(
  `never always nobody everyone everybody secret truth biggest mistake wrong lie lies myth worst best most only
guaranteed proven impossible shocking ruined destroyed million billion percent`.split(/\s+/),
);

export const NUMBER_WORDS = new Set(
  `two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million
billion percent half double triple`.split(/\s+/),
);

export const HOOK_PHRASES = [
  'let me tell you',
  "here's the thing",
  'here is the thing',
  'imagine',
  'what if',
  'nobody tells you',
  'no one tells you',
  'the truth is',
  'the biggest mistake',
  'the secret',
  'did you know',
  'have you ever',
  'want to know',
  'the reason why',
  'listen',
  'true story',
  'i have to confess',
  'i need to tell you',
  'i never told',
];

export const STORY_MARKERS = [
  'i remember',
  'years ago',
  'one day',
  'one night',
  'when i was',
  'there i was',
  'so there i',
  'this one time',
  'the first time i',
  'the day i',
  'true story',
  'let me tell you',
  'i never told',
];

export const RESOLUTION_MARKERS = [
  'turns out',
  'turned out',
  "that's when",
  'that is when',
  "and that's why",
  'that is why',
  "that's why",
  'the lesson',
  'in the end',
  'finally',
  'which is why',
  'the moral',
  'i realized',
  'i finally',
  'the point is',
  'from that day',
  'ever since',
  'and guess what',
  'the punchline',
  'it hit me',
  'i learned',
  'never again',
  'and that was',
  // A closing call to action also lands a thought.
  'please',
  'next time you',
  'take one thing',
];

export const CONTRAST_PATTERNS = [
  /\bnot\b[^.?!]{1,60}\bbut\b/,
  /\bit'?s not about\b/,
  /\binstead of\b/,
  /\bthe difference between\b/,
  /\bthe more\b[^.?!]{1,40}\bthe (more|less)\b/,
  /\bisn'?t\b[^.?!]{1,60}\bit'?s\b/,
  /\bdon'?t\b[^.?!]{1,40}\b(do|instead)\b/,
  /\b(?:don'?t|do not) need\b[^.?!]{1,50}\bneed\b/,
];

/** Persona words that pull in an audience's vocabulary for `actAs` (a deterministic stand-in for an LLM's judgement). */
export const PERSONA_VOCABULARY: Record<string, string> = {
  founder:
    'startup company business investors funding raise revenue customers product market growth hire team launch pitch valuation',
  entrepreneur:
    'startup company business investors funding revenue customers product market growth launch profit',
  startup: 'founder investors funding revenue customers product market growth launch pitch',
  investor: 'invest investment returns portfolio stocks market money risk valuation shares',
  marketer: 'marketing brand audience customers campaign ads content social growth conversion',
  developer: 'code software programming engineer bug app computer deploy build',
  engineer: 'code software programming build system design technical',
  programmer: 'code software programming bug app computer',
  parent: 'kids children son daughter family school baby mom dad parenting',
  mother: 'kids children son daughter family baby parenting',
  father: 'kids children son daughter family baby parenting',
  student: 'school study exam class teacher college university learn grades',
  teacher: 'school students class lesson learn teaching education',
  athlete: 'training workout fitness race coach game team muscle',
  fitness: 'training workout exercise gym muscle running health diet',
  cook: 'cooking recipe kitchen food ingredients chef taste dish',
  chef: 'cooking recipe kitchen food ingredients taste dish restaurant',
  gardener: 'garden plants soil seeds grow water harvest',
  traveler: 'travel trip flight city country hotel abroad journey',
  doctor: 'health patients hospital medicine diagnosis treatment',
  designer: 'design visual layout color typography brand user',
};
