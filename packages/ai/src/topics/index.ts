// Where a talk changes topic: shared by the summary's chapters and moment finding.
export {
  embedRemembered,
  lexicalVectors,
  meanVector,
  sentenceVectors,
  topicOfSentence,
  topicStarts,
  type Vector,
} from './shifts';
