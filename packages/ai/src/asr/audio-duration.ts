import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SpeechRecognitionError } from './types';

const execFileAsync = promisify(execFile);

/** Duration of the first audio stream (or the container), in integer milliseconds. */
export async function probeAudioDurationMs(
  audioFile: string,
  signal?: AbortSignal,
): Promise<number> {
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(
      process.env.FFPROBE_PATH ?? 'ffprobe',
      [
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'default=noprint_wrappers=1:nokey=1',
        '-i',
        audioFile,
      ],
      { signal, timeout: 30_000 },
    ));
  } catch (error) {
    if (signal?.aborted)
      throw new SpeechRecognitionError('transcription aborted', 'aborted', { cause: error });
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new SpeechRecognitionError(
      `cannot read audio ${audioFile}: ${stderr || String(error)}`,
      'bad_input',
      {
        cause: error,
      },
    );
  }
  const seconds = Number.parseFloat(stdout.trim());
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new SpeechRecognitionError(`cannot read audio ${audioFile}: no duration`, 'bad_input');
  }
  return Math.round(seconds * 1000);
}
