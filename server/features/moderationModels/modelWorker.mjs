/**
 * The moderation models' thread (worker_threads): Human (face boxes, head pose, face descriptor) and nsfwjs
 * (MobileNetV2 nudity classes), both on tfjs's wasm backend, which is single-threaded here. Plain JavaScript on
 * purpose: a worker is started from a file path, and this one is the same file under vitest, tsx and the
 * esbuild bundle (which points `import.meta.dirname` at the source tree, scripts/buildServer.mjs).
 *
 * Messages in: `{ id, kind: 'faces' | 'nsfw', deadline, image: Uint8Array }` (deadline: epoch ms, after which
 * the job is skipped unrun) (an encoded JPEG, PNG or WebP), one at a
 * time in order (the parent's queue). Out: `{ id, ok: true, result }` or `{ id, ok: false, error }`; and once,
 * `{ ready: true, loadMs }` or `{ ready: false, error }` after the models loaded (or failed to).
 *
 * The loading recipe follows ../shared/notes/ml-feasibility.md: Human's node-wasm build by path (its exports
 * map points at the tfjs-node build, which cannot install here), the wasm binaries from a local folder, a
 * `fetch` that reads `file://` and refuses anything else (no model is ever downloaded), nsfwjs through ESM
 * (its CommonJS build takes 8 s and gigabytes), images decoded by sharp, every tensor disposed.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
// Package names in variables: TypeScript would otherwise read tfjs's declarations, which change the
// project's global types (fetch among them).
const wasmPackage = '@tensorflow/tfjs-backend-wasm';
const humanDir = path.dirname(require.resolve('@vladmandic/human'));
const wasmDir = path.dirname(require.resolve(wasmPackage)) + path.sep;
const modelsUrl = pathToFileURL(path.join(humanDir, '..', 'models') + path.sep).href;

/**
 * Human and tfjs read model files with the global fetch: only files of ours, never the network.
 * @param {string | URL | Request} input
 * @returns {Promise<Response>}
 */
async function fileFetch(input) {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith('file://')) throw new Error(`moderation models may not fetch ${url}`);
  return new Response(await readFile(fileURLToPath(url)), { status: 200 });
}
Reflect.set(globalThis, 'fetch', fileFetch);

/** Only the face parts a selfie check needs: no hands, body, objects, emotion or the useless anti-spoof. */
const humanConfig = {
  backend: 'wasm',
  wasmPath: wasmDir,
  wasmPlatformFetch: false,
  modelBasePath: modelsUrl,
  // Still photos: never reuse a previous frame's result.
  cacheSensitivity: 0,
  debug: false,
  async: true,
  warmup: 'none',
  filter: { enabled: false },
  face: {
    enabled: true,
    detector: { enabled: true, rotation: true, maxDetected: 5, minConfidence: 0.3, return: false },
    mesh: { enabled: true },
    iris: { enabled: false },
    description: { enabled: true },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    attention: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
};

/** @type {Promise<{ human: any, nsfw: any, sharp: any, loadMs: number }>} */
const loaded = (async () => {
  const started = performance.now();
  const { default: sharp } = await import('sharp');
  /** @type {any} */
  const humanModule = require(path.join(humanDir, 'human.node-wasm.js'));
  const human = new humanModule.Human(humanConfig);
  /** @type {any} */
  const wasm = require(wasmPackage);
  wasm.setWasmPaths(wasmDir, false);
  await human.load();
  await human.tf.ready();
  const nsfwName = 'nsfwjs';
  /** @type {any} */
  const nsfwjs = await import(nsfwName);
  // nsfwjs prints which model it loads on every load: the server's log is JSON lines, so it is kept quiet.
  const info = console.info;
  console.info = () => undefined;
  const nsfw = await nsfwjs.load('MobileNetV2').finally(() => {
    console.info = info;
  });
  return { human, nsfw, sharp, loadMs: Math.round(performance.now() - started) };
})();

/**
 * Faces in the image: box (pixels), detection score, head pose in radians (yaw, pitch, roll as Human reports
 * them: the image as taken, not mirrored) and the descriptor (an array of numbers).
 * @param {{ human: any, sharp: any }} models
 * @param {Uint8Array} image
 */
async function faces({ human, sharp }, image) {
  const { data, info } = await sharp(image).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const tensor = human.tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
  const batch = human.tf.expandDims(tensor, 0);
  try {
    const result = await human.detect(batch);
    return {
      width: info.width,
      height: info.height,
      faces: result.face.map((/** @type {any} */ face) => ({
        box: face.box,
        score: face.score,
        yaw: face.rotation?.angle?.yaw ?? null,
        pitch: face.rotation?.angle?.pitch ?? null,
        roll: face.rotation?.angle?.roll ?? null,
        descriptor: face.embedding ? Array.from(face.embedding) : null,
      })),
    };
  } finally {
    human.tf.dispose([batch, tensor]);
  }
}

/**
 * nsfwjs's classes for the image at 224x224 (the model's input size: sharp resizes far faster than tfjs).
 * @param {{ human: any, nsfw: any, sharp: any }} models
 * @param {Uint8Array} image
 */
async function nsfw({ human, nsfw, sharp }, image) {
  const data = await sharp(image).rotate().resize(224, 224, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const tensor = human.tf.tensor3d(new Uint8Array(data), [224, 224, 3], 'int32');
  try {
    const classes = await nsfw.classify(tensor, 5);
    /** @type {Record<string, number>} */
    const byName = {};
    for (const c of classes) byName[c.className] = c.probability;
    return byName;
  } finally {
    human.tf.dispose(tensor);
  }
}

const port = parentPort;
if (!port) throw new Error('modelWorker.mjs runs only as a worker thread');

loaded.then(
  (models) => port.postMessage({ ready: true, loadMs: models.loadMs }),
  (error) => port.postMessage({ ready: false, error: String(error?.stack ?? error) }),
);

// One job at a time, in the order received: the wasm backend runs one thing at once anyway.
let chain = Promise.resolve();
port.on(
  'message',
  (/** @type {{ id: number, kind: 'faces' | 'nsfw' | 'tensors', deadline: number, image: Uint8Array }} */ message) => {
    chain = chain.then(async () => {
      // The parent stopped waiting (its timeout): running it would only delay every later job.
      if (Date.now() > message.deadline) {
        port.postMessage({ id: message.id, ok: false, error: 'expired before it ran' });
        return;
      }
      try {
        const models = await loaded;
        const started = performance.now();
        const result =
          message.kind === 'faces'
            ? await faces(models, message.image)
            : message.kind === 'nsfw'
              ? await nsfw(models, message.image)
              : { tensors: models.human.tf.memory().numTensors };
        port.postMessage({ id: message.id, ok: true, result, ms: Math.round(performance.now() - started) });
      } catch (error) {
        port.postMessage({ id: message.id, ok: false, error: String(/** @type {any} */ (error)?.message ?? error) });
      }
    });
  },
);
