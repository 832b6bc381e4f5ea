import { runProcess, toolPath } from '@moments/process';
import { SpeechRecognitionError } from './types';

/** Duration of the first audio stream (or the container), in integer milliseconds. */
export async function probeAudioDurationMs(
  audioFile: string,
  signal?: AbortSignal,
): Promise<number> {
  const probe = await runProcess(
    toolPath('ffprobe'),
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
    { signal, timeoutMs: 30_000 },
  );
  if (signal?.aborted) {
    throw new SpeechRecognitionError('transcription aborted', 'aborted', { cause: signal.reason });
  }
  if (probe.spawnError || probe.exitCode !== 0) {
    const reason = probe.spawnError ? String(probe.spawnError) : probe.stderrTail.trim();
    throw new SpeechRecognitionError(`cannot read audio ${audioFile}: ${reason}`, 'bad_input', {
      cause: probe.spawnError,
    });
  }
  const seconds = Number.parseFloat(probe.stdout.toString('utf8').trim());
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new SpeechRecognitionError(`cannot read audio ${audioFile}: no duration`, 'bad_input');
  }
  return Math.round(seconds * 1000);
}
