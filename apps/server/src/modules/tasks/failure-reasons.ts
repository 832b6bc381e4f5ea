import { SpeechRecognitionError } from '@moments/ai/asr';
import { MediaError } from '@moments/media/errors';
import { AppError } from '../../http/errors.js';

/**
 * The sentence a user reads on an ERROR task. Our own errors already speak to users; anything
 * unexpected gets a general sentence (its details go to the log, not to the screen).
 */
export function userFacingReason(error: unknown): string {
  if (error instanceof AppError || error instanceof MediaError) return error.message;
  if (error instanceof SpeechRecognitionError) {
    return `Speech recognition failed: ${error.message}`;
  }
  console.error('task failed unexpectedly', error);
  return 'Something went wrong while processing this video. Please retry.';
}
