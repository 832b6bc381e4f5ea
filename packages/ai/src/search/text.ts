import { stemmer } from 'stemmer';

// Function words carry no topic; they are left out of relevance, salience and hashtags.
const STOPWORDS = new Set(
  `a about above after again against all almost also am an and any are aren't around as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't done down
during each either else enough even ever every few for from further get gets getting got gonna had hadn't has hasn't
have haven't having he he'd he'll he's her here here's hers herself him himself his how how's however i i'd i'll
i'm i've if in into is isn't it it's its itself just kind kinda know let let's like lot lots made make makes many
may maybe me might more most much must mustn't my myself need no nor not now of off oh ok okay on once one only
or other ought our ours ourselves out over own pretty quite rather really right said same say says see seem seems
shall shan't she she'd she'll she's should shouldn't since so some something sometimes somewhat still such sure
take than that that's the their theirs them themselves then there there's these they they'd they'll they're
they've thing things think this those though through to too toward towards uh um under until up upon us use used
very want wanna was wasn't way we we'd we'll we're we've well went were weren't what what's whatever when when's
where where's whether which while who who's whom whose why why's will with within without won't would wouldn't
yeah yes yet you you'd you'll you're you've your yours yourself yourselves go going goes gone come comes came bit
actually basically yep mean means guess anyway back`.split(/\s+/),
);

const WORD_PATTERN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Lower-cased word tokens with apostrophes normalised; punctuation dropped. */
export function wordTokens(text: string): string[] {
  return (text.toLowerCase().match(WORD_PATTERN) ?? []).map((token) => token.replace(/’/g, "'"));
}

const stemCache = new Map<string, string>();

/** Porter stem of one lower-case token ("running" and "runs" meet at "run"); numbers stay as they are. */
export function stem(token: string): string {
  let stemmed = stemCache.get(token);
  if (stemmed === undefined) {
    stemmed = /^\p{N}+$/u.test(token) ? token : stemmer(token.replace(/'s$/, ''));
    if (stemCache.size < 100_000) stemCache.set(token, stemmed);
  }
  return stemmed;
}

/** Stemmed content terms of a text: what relevance and salience are computed on. */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of wordTokens(text)) {
    if (token.length < 2 && !/\p{N}/u.test(token)) continue;
    if (STOPWORDS.has(token)) continue;
    terms.push(stem(token));
  }
  return terms;
}

/** Stemmed content terms with the surface word seen first for each stem, for readable hashtags. */
export function contentTermsWithSurface(text: string): { term: string; surface: string }[] {
  const result: { term: string; surface: string }[] = [];
  for (const token of wordTokens(text)) {
    if (token.length < 3 || STOPWORDS.has(token) || /^\p{N}+$/u.test(token)) continue;
    result.push({ term: stem(token), surface: token.replace(/'.*$/, '') });
  }
  return result;
}
