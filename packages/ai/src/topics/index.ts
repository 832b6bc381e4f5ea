// Where a talk changes topic: shared by the summary's chapters and moment finding (issue 20).
export {
  embedRemembered,
  lexicalVectors,
  meanVector,
  sentenceVectors,
  topicOfSentence,
  topicStarts,
  type Vector,
} from './shifts';
