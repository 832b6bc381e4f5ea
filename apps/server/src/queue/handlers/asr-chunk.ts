import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Transcribes one chunk; tracked like a task run, so close() stops it before the scratch folder goes. */
export const asrChunk =
  (services: Services): JobHandler<'asr-chunk'> =>
  ({ taskId, index }) =>
    services.background.run((signal) => services.transcription.runChunk(taskId, index, signal));
