// What the machine writes, in English: tagging, noun phrases, and how sure the engine was of a word.
export {
  endsOnFunctionWord,
  FUNCTION_TAGS,
  grammarCues,
  type GrammarCues,
  nounPhrases,
  tagWords,
  type NounPhrase,
  type TaggedWord,
} from './english';
export {
  featuresLowConfidence,
  isLowConfidence,
  isUnsureContentWord,
  LOW_CONFIDENCE,
  lowConfidenceForms,
  type ScoredWord,
} from './confidence';
export {
  hashtagOf,
  keyphrases,
  lexicalKeyphrases,
  type Keyphrase,
  type KeyphraseOptions,
} from './keyphrases';
export { captionKeywords } from './caption-keywords';
