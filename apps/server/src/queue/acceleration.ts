import { cudaAvailability, fasterWhisperOptionsFromEnv } from '@moments/ai/asr';
import { nvencAvailability } from '@moments/media/ffmpeg';
import { speechSettings, type AppConfig } from '../config/index.js';

/** A GPU switch is on but the hardware (or its driver) is not there. */
class AccelerationUnavailableError extends Error {}

/**
 * Refuses a worker whose GPU switches cannot work here, before it takes a job, with the reason
 * and the way back to the CPU path. Only the queues this worker takes are checked: a render-only
 * worker needs no CUDA, a transcription-only one no NVENC.
 */
export async function assertAccelerationAvailable(config: AppConfig): Promise<void> {
  const problems: string[] = [];
  if (
    config.ASR_DEVICE === 'cuda' &&
    config.WORKER_QUEUES.includes('asr') &&
    !config.ASR_BASE_URL
  ) {
    const cuda = await cudaAvailability(fasterWhisperOptionsFromEnv(speechSettings(config)));
    if (!cuda.available) problems.push(cuda.reason);
  }
  if (config.VIDEO_ENCODER === 'nvenc' && config.WORKER_QUEUES.includes('render')) {
    const nvenc = await nvencAvailability();
    if (!nvenc.available) problems.push(nvenc.reason);
  }
  if (problems.length) throw new AccelerationUnavailableError(problems.join('\n'));
}
