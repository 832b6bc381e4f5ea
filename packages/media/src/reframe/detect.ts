/**
 * Face detection with @vladmandic/human (BlazeFace) on the tfjs WebAssembly backend.
 *
 * design.md: `@tensorflow/tfjs-node` cannot install here, so Human's `node-wasm` build is used. The
 * wasm binaries come from the @tensorflow/tfjs-backend-wasm package and the models from Human's own
 * `models/` folder: nothing is fetched at run time.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Config, Human } from '@vladmandic/human';
import { MediaError, type MediaErrorCode } from '../errors/index.js';

/** A face box in pixels of the image it was found in. */
export interface FaceBox {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Detector confidence in [0, 1]. */
  score: number;
  /** How open the mouth is (inner-lip gap over face height), where it was measured. */
  mouth?: number;
}

export interface FaceDetector {
  /** Faces in one packed RGB24 image (`width * height * 3` bytes). */
  detectFaces(rgb: Uint8Array, width: number, height: number): Promise<FaceBox[]>;
  /**
   * How open the mouth of each face is (boxes in pixels of the same image): the gap between the
   * inner lips over the face's height, from the face mesh's lip landmarks; null where the mesh
   * found no face in the box.
   */
  measureMouths(
    rgb: Uint8Array,
    width: number,
    height: number,
    faces: readonly FaceBox[],
  ): Promise<(number | null)[]>;
}

/** Below this BlazeFace confidence a "face" is too often a pattern or an animal. */
const MIN_FACE_CONFIDENCE = 0.5;
const MAX_FACES = 8;

let detectorPromise: Promise<FaceDetector> | undefined;

/**
 * The shared detector of this process. It runs on its own worker thread: a detection is about
 * 25 ms of WebAssembly, and on the analysing thread it would stall ffmpeg's pipe (64 KB, a tenth
 * of a frame) for as long, so decoding and detecting would take turns instead of overlapping.
 * The model loads once per process (about 0.1 s).
 */
export function loadFaceDetector(): Promise<FaceDetector> {
  detectorPromise ??= startDetectorThread().catch((error: unknown) => {
    detectorPromise = undefined; // let a later call try again
    throw error;
  });
  return detectorPromise;
}

/** A request to the detector thread; `rgb` is transferred, not copied. */
export interface DetectorRequest {
  id: number;
  rgb: ArrayBuffer;
  width: number;
  height: number;
  /** Present: measure these faces' mouths instead of detecting faces. */
  mouthsOf?: FaceBox[];
}

type ReplyError = { code: MediaErrorCode; message: string };
/** What the detector thread answers: once `ready`, then one reply per request. */
export type DetectorReply =
  | { ready: true }
  | { ready: false; error: ReplyError }
  | { id: number; faces: FaceBox[] }
  | { id: number; mouths: (number | null)[] }
  | { id: number; error: ReplyError };

async function startDetectorThread(): Promise<FaceDetector> {
  const workerFile = new URL('./detect-worker.ts', import.meta.url).href;
  let tsxApi: string;
  try {
    tsxApi = import.meta.resolve('tsx/esm/api'); // the ESM entry (require would give the CJS one)
  } catch (error) {
    throw new MediaError('TOOL_MISSING', 'tsx is not installed', { cause: error });
  }
  // The worker is TypeScript like the rest: it registers tsx itself, whatever ran this process.
  const worker = new Worker(
    `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(workerFile)}); });`,
    { eval: true, name: 'face-detector' },
  );
  const pending = new Map<
    number,
    { resolve: (reply: unknown) => void; reject: (error: Error) => void }
  >();
  let nextId = 1;
  let dead: Error | undefined;
  const fail = (error: Error) => {
    dead ??= error;
    detectorPromise = undefined; // the next analysis starts a new thread
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  };

  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number) =>
      reject(new MediaError('FACE_DETECTOR_FAILED', `the face detector thread exited (${code})`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (reply: DetectorReply) => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      if ('ready' in reply && reply.ready) resolve();
      else if ('error' in reply) reject(new MediaError(reply.error.code, reply.error.message));
    });
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error instanceof MediaError
      ? error
      : new MediaError('FACE_DETECTOR_FAILED', 'the face detector could not start', {
          cause: error,
        });
  });

  worker.on('message', (reply: DetectorReply) => {
    if (!('id' in reply)) return;
    const request = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if ('faces' in reply) request?.resolve(reply.faces);
    else if ('mouths' in reply) request?.resolve(reply.mouths);
    else request?.reject(new MediaError(reply.error.code, reply.error.message));
  });
  worker.on('error', (error) =>
    fail(
      new MediaError('FACE_DETECTOR_FAILED', 'the face detector thread failed', { cause: error }),
    ),
  );
  worker.on('exit', (code) =>
    fail(new MediaError('FACE_DETECTOR_FAILED', `the face detector thread exited (${code})`)),
  );
  // An idle detector must not keep a finished process (a CLI, a test run) alive; a busy one must.
  worker.unref();

  const ask = <T>(rgb: Uint8Array, width: number, height: number, mouthsOf?: FaceBox[]) => {
    if (dead) return Promise.reject(dead);
    if (rgb.length !== width * height * 3) {
      return Promise.reject(new RangeError('rgb must be width*height*3 bytes'));
    }
    const id = nextId++;
    // A copy to hand over: the caller keeps its frame (to compare with the next ones).
    const copy = new Uint8Array(rgb).buffer; // (Buffer#slice would share, not copy)
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (reply: unknown) => void, reject });
      const request: DetectorRequest = { id, rgb: copy, width, height, mouthsOf };
      worker.postMessage(request, [copy]);
    });
  };
  return {
    detectFaces: (rgb, width, height) => ask<FaceBox[]>(rgb, width, height),
    measureMouths: (rgb, width, height, faces) =>
      faces.length === 0
        ? Promise.resolve([])
        : ask<(number | null)[]>(
            rgb,
            width,
            height,
            faces.map((face) => ({ ...face })),
          ),
  };
}

/** The detector on this thread: the detector thread's own (see detect-worker.ts). */
export async function createInProcessFaceDetector(): Promise<FaceDetector> {
  const require = createRequire(import.meta.url);
  let humanMain: string;
  let wasmMain: string;
  try {
    humanMain = require.resolve('@vladmandic/human');
    wasmMain = require.resolve('@tensorflow/tfjs-backend-wasm');
  } catch (error) {
    throw new MediaError('TOOL_MISSING', 'face detection packages are not installed', {
      cause: error,
    });
  }
  // Human's package.json maps its subpaths without "./", which Node rejects; load the file itself.
  const humanModule = require(join(dirname(humanMain), 'human.node-wasm.js')) as {
    Human: new (config?: Partial<Config>) => Human;
  };
  const start = async (config: Partial<Config>) => {
    const instance = new humanModule.Human(config);
    registerFileModelLoader(instance);
    try {
      await instance.load();
      await instance.init();
    } catch (error) {
      throw new MediaError('FACE_DETECTOR_FAILED', 'the face detector could not start', {
        cause: error,
      });
    }
    return instance;
  };
  const config = detectorConfig(dirname(wasmMain), join(dirname(dirname(humanMain)), 'models'));
  const human = await start(config);
  if (human.tf.getBackend() !== 'wasm' || !isModelLoaded(human, 'blazeface')) {
    throw new MediaError('FACE_DETECTOR_FAILED', 'the face detector model did not load', {
      details: { backend: human.tf.getBackend() },
    });
  }
  // The face mesh (468 landmarks, the lips among them) loads with the first mouth measure: most
  // footage never has two faces to tell apart.
  let mesh: Promise<Human> | undefined;
  const meshHuman = () => (mesh ??= start(meshConfig(config)));

  // Human keeps per-call state; one call at a time per process.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    // The previous call's failure is its caller's to see; the next one only waits its turn.
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    detectFaces: (rgb, width, height) => serially(() => detectOnce(human, rgb, width, height)),
    measureMouths: (rgb, width, height, faces) =>
      serially(async () => mouthsOnce(await meshHuman(), rgb, width, height, faces)),
  };
}

/** Human's settings for BlazeFace alone, every other model off. */
function detectorConfig(wasmDir: string, modelsDir: string): Partial<Config> {
  return {
    backend: 'wasm',
    // A folder path: in Node the wasm backend reads `tfjs-backend-wasm*.wasm` from it with fs.
    wasmPath: wasmDir + '/',
    modelBasePath: pathToFileURL(modelsDir).href + '/',
    debug: false,
    async: false,
    warmup: 'none',
    cacheModels: false,
    // Frames are seconds apart after sampling: never reuse boxes from an earlier frame.
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false } as Config['filter'],
    face: {
      enabled: true,
      detector: {
        modelPath: 'blazeface.json',
        rotation: false,
        maxDetected: MAX_FACES,
        skipFrames: 0,
        skipTime: 0,
        minConfidence: MIN_FACE_CONFIDENCE,
        minSize: 0,
        iouThreshold: 0.3,
        scale: 1, // the face itself, not Human's enlarged crop for its mesh model
        square: false, // Human 3.3.6 misplaces boxes (y) when it pads to square
        mask: false,
        return: false,
      },
      mesh: { enabled: false },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
      gear: { enabled: false },
    } as unknown as Config['face'],
    body: { enabled: false } as Config['body'],
    hand: { enabled: false } as Config['hand'],
    object: { enabled: false } as Config['object'],
    gesture: { enabled: false },
    segmentation: { enabled: false } as Config['segmentation'],
  };
}

/** The detector's settings plus the face mesh, for one face per (cropped) image. */
function meshConfig(config: Partial<Config>): Partial<Config> {
  const face = config.face as unknown as { detector: object };
  return {
    ...config,
    face: {
      ...face,
      // Human's own crop for the mesh: the face with room around it, square.
      detector: { ...face.detector, maxDetected: 1, scale: 1.4, square: true },
      mesh: { enabled: true, modelPath: 'facemesh.json', keepInvalid: false },
    } as unknown as Config['face'],
  };
}

async function detectOnce(
  human: Human,
  rgb: Uint8Array,
  width: number,
  height: number,
): Promise<FaceBox[]> {
  if (rgb.length !== width * height * 3) throw new RangeError('rgb must be width*height*3 bytes');
  const tensor = human.tf.tensor4d(Int32Array.from(rgb), [1, height, width, 3], 'int32');
  try {
    const result = await human.detect(tensor as never);
    if (result.error) throw new MediaError('FACE_DETECTOR_FAILED', String(result.error));
    return result.face.map((face) => ({
      x: face.box[0],
      y: face.box[1],
      w: face.box[2],
      h: face.box[3],
      score: face.boxScore ?? face.score,
    }));
  } finally {
    human.tf.dispose(tensor);
  }
}

/** Square around a face, this many times its size, given to the face mesh (room for the chin). */
const MOUTH_CROP_SCALE = 1.8;
/** Side of that square as the mesh gets it. */
const MOUTH_CROP_SIZE = 192;
/** Mesh landmarks: pairs of inner-lip points (upper, lower), and the face's top and bottom. */
const INNER_LIPS: [number, number][] = [
  [13, 14],
  [82, 87],
  [312, 317],
];
const FOREHEAD = 10;
const CHIN = 152;

async function mouthsOnce(
  human: Human,
  rgb: Uint8Array,
  width: number,
  height: number,
  faces: readonly FaceBox[],
): Promise<(number | null)[]> {
  if (rgb.length !== width * height * 3) throw new RangeError('rgb must be width*height*3 bytes');
  const tf = human.tf;
  const image = tf.tensor4d(Float32Array.from(rgb), [1, height, width, 3], 'float32');
  try {
    const results: (number | null)[] = [];
    for (const face of faces) {
      const side = Math.max(face.w, face.h) * MOUTH_CROP_SCALE;
      const cx = face.x + face.w / 2;
      const cy = face.y + face.h / 2;
      // Normalised [y1, x1, y2, x2]; what lies outside the frame comes out black.
      const box = [
        (cy - side / 2) / height,
        (cx - side / 2) / width,
        (cy + side / 2) / height,
        (cx + side / 2) / width,
      ];
      const crop = tf.image.cropAndResize(
        image as never,
        [box],
        [0],
        [MOUTH_CROP_SIZE, MOUTH_CROP_SIZE],
      );
      try {
        const result = await human.detect(crop as never);
        const mesh = result.face[0]?.meshRaw;
        results.push(mesh && mesh.length > CHIN ? mouthOpenness(mesh) : null);
      } finally {
        tf.dispose(crop);
      }
    }
    return results;
  } finally {
    tf.dispose(image);
  }
}

/** Mean inner-lip gap over the face's height (forehead to chin), both from the mesh. */
function mouthOpenness(mesh: readonly (readonly (number | undefined)[])[]): number | null {
  const distance = (a: number, b: number) =>
    Math.hypot(mesh[a]![0]! - mesh[b]![0]!, mesh[a]![1]! - mesh[b]![1]!);
  const faceHeight = distance(FOREHEAD, CHIN);
  if (!(faceHeight > 0)) return null;
  const gap = INNER_LIPS.reduce((sum, [upper, lower]) => sum + distance(upper, lower), 0);
  return Math.round((gap / INNER_LIPS.length / faceHeight) * 10_000) / 10_000;
}

/**
 * Node's fetch cannot read file:// URLs and the wasm build has no file-system loader, so model
 * files are handed to tfjs from disk here.
 */
let fileLoaderRegistered = false;
function registerFileModelLoader(human: Human): void {
  // One router for the tfjs shared by every Human on this thread: two matching routers fail a load.
  if (fileLoaderRegistered) return;
  fileLoaderRegistered = true;
  const io = human.tf.io;
  io.registerLoadRouter((url: string | string[]) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const modelFile = fileURLToPath(url);
    return {
      load: async () => {
        const modelJson = JSON.parse(await readFile(modelFile, 'utf8'));
        return io.getModelArtifactsForJSON(modelJson, async (manifest: WeightsGroup[]) => {
          const specs = manifest.flatMap((group) => group.weights);
          const parts = await Promise.all(
            manifest
              .flatMap((group) => group.paths)
              .map((path) => readFile(join(dirname(modelFile), path))),
          );
          const weights = Buffer.concat(parts);
          return [
            specs,
            weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
          ] as never;
        });
      },
    };
  });
}

/** One entry of a tfjs model.json `weightsManifest`. */
interface WeightsGroup {
  paths: string[];
  weights: unknown[];
}

function isModelLoaded(human: Human, name: string): boolean {
  const models = human.models as unknown as { models?: Record<string, unknown> };
  return Boolean((models.models ?? (human.models as unknown as Record<string, unknown>))[name]);
}
