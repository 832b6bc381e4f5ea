import { SpeechRecognitionError } from '@moments/ai/asr';
import { MediaError, asDiskFull } from '@moments/media/errors';
import { LinkError } from '@moments/net';
import { AppError } from '../../http/errors.js';

/** Whether a failure is one of ours, already worded for the user (not a bug to look into). */
export function isExpectedFailure(error: unknown): boolean {
  return (
    error instanceof AppError ||
    error instanceof MediaError ||
    error instanceof LinkError ||
    error instanceof SpeechRecognitionError
  );
}

/**
 * The sentence a user reads on an ERROR task. Our own errors already speak to users; anything
 * unexpected gets a general sentence (the runner logs its details, not the screen).
 */
export function userFacingReason(error: unknown): string {
  // A full disk reads the same whichever tool or write hit it first.
  const diskFull = asDiskFull(error);
  if (diskFull) return diskFull.message;
  if (error instanceof AppError || error instanceof MediaError || error instanceof LinkError) {
    return error.message;
  }
  if (error instanceof SpeechRecognitionError) {
    return `Speech recognition failed: ${error.message}`;
  }
  return 'Something went wrong while processing this video. Please retry.';
}
