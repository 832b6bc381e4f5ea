/**
 * The face detector's own thread (see `loadFaceDetector`): it loads the model once and answers
 * one detection request at a time, so the analysing thread keeps draining ffmpeg's pipe (and
 * ffmpeg keeps decoding) while a frame is in the detector.
 */
import { parentPort } from 'node:worker_threads';
import { MediaError } from '../errors/index.js';
import { createInProcessFaceDetector, type DetectorReply, type DetectorRequest } from './detect';

const port = parentPort;
if (!port) throw new Error('detect-worker runs only as a worker thread');

const failure = (error: unknown) => ({
  code: error instanceof MediaError ? error.code : 'FACE_DETECTOR_FAILED',
  message: error instanceof Error ? error.message : String(error),
});

try {
  const detector = await createInProcessFaceDetector();
  port.postMessage({ ready: true } satisfies DetectorReply);
  port.on('message', async (request: DetectorRequest) => {
    try {
      const rgb = new Uint8Array(request.rgb);
      if (request.mouthsOf) {
        const mouths = await detector.measureMouths(
          rgb,
          request.width,
          request.height,
          request.mouthsOf,
        );
        port.postMessage({ id: request.id, mouths } satisfies DetectorReply);
      } else {
        const faces = await detector.detectFaces(rgb, request.width, request.height);
        port.postMessage({ id: request.id, faces } satisfies DetectorReply);
      }
    } catch (error) {
      port.postMessage({ id: request.id, error: failure(error) } satisfies DetectorReply);
    }
  });
} catch (error) {
  port.postMessage({ ready: false, error: failure(error) } satisfies DetectorReply);
}
