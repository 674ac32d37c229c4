import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.ts';

/** One face Human found: its box in pixels `[x, y, width, height]`, head pose in radians, and its descriptor. */
export interface FoundFace {
  box: [number, number, number, number];
  score: number;
  /** Head pose as Human reports it for the image as taken (a mirrored selfie flips yaw and roll). */
  yaw: number | null;
  pitch: number | null;
  roll: number | null;
  /** Human's faceres descriptor (1024 numbers); null when the face was too small to describe. */
  descriptor: number[] | null;
}

export interface FaceAnalysis {
  width: number;
  height: number;
  faces: FoundFace[];
}

/** nsfwjs's five classes and their probabilities (Drawing, Hentai, Neutral, Porn, Sexy). */
export type NsfwClasses = Record<string, number>;

/**
 * The on-server models that moderation uses (docs/trust.md). Every answer may be `null`: the models are off
 * (MODERATION_ML=off), could not load on this machine, failed on this image or took too long; callers then
 * fall back to a person (a selfie goes to a moderator, an upload is shown unscreened).
 */
export interface ModerationModels {
  /**
   * Whether the models are meant to answer: false when off or when they could not load on this machine. While
   * true, a null answer means they failed this time (stalled, timed out, the thread died): screening then
   * fails closed and holds the upload for a moderator.
   */
  readonly on: boolean;
  faces(image: Buffer): Promise<FaceAnalysis | null>;
  nsfw(image: Buffer): Promise<NsfwClasses | null>;
  close(): Promise<void>;
}

/** MODERATION_ML=off: nothing is ever analysed. */
export const modelsOff: ModerationModels = {
  on: false,
  faces: () => Promise.resolve(null),
  nsfw: () => Promise.resolve(null),
  close: () => Promise.resolve(),
};

type Reply = { id: number; ok: true; result: unknown; ms: number } | { id: number; ok: false; error: string };
type Ready = { ready: true; loadMs: number } | { ready: false; error: string };

const defaultWorkerFile = path.join(import.meta.dirname, 'modelWorker.mjs');

/** A queued request waits this long for its answer (the queue included) before the caller falls back. */
const defaultAnswerMs = 60_000;

/**
 * Requests waiting on the thread at most (about a second each): beyond it an answer could not come within
 * the deadline anyway, so a new one fails at once instead of growing the queue under load.
 */
const defaultMaxQueued = 32;

export interface WorkerModelsOptions {
  answerMs?: number;
  maxQueued?: number;
  /** The thread's script (tests start one that stalls or exits). */
  workerFile?: string;
}

/**
 * The models in one worker thread (modelWorker.mjs), started on first use, so a server that never gets a
 * photo never pays its 4-5 s and ~350 MB. The thread answers one request at a time in order; Koa's event
 * loop only posts images and waits for messages. The queue is bounded and each job carries a deadline the
 * thread checks before running it, so answers nobody waits for any more are skipped rather than delaying
 * every later one. If the thread cannot load the models (a machine without wasm SIMD, a missing package),
 * every answer is null from then on (`on` false) and the reason is logged once; if it dies, what waits on it
 * fails at once and the next request starts a new thread.
 */
export class WorkerModels implements ModerationModels {
  private worker: Worker | undefined;
  private failed = false;
  private closed = false;
  private nextId = 0;
  private readonly pending = new Map<number, (reply: Reply | null) => void>();
  private loaded: Promise<boolean> | undefined;
  private readonly answerMs: number;
  private readonly maxQueued: number;
  private readonly workerFile: string;

  constructor(
    private readonly logger: Logger,
    options: WorkerModelsOptions = {},
  ) {
    this.answerMs = options.answerMs ?? defaultAnswerMs;
    this.maxQueued = options.maxQueued ?? defaultMaxQueued;
    this.workerFile = options.workerFile ?? defaultWorkerFile;
  }

  get on(): boolean {
    return !this.failed && !this.closed;
  }

  async faces(image: Buffer): Promise<FaceAnalysis | null> {
    return (await this.ask('faces', image)) as FaceAnalysis | null;
  }

  async nsfw(image: Buffer): Promise<NsfwClasses | null> {
    return (await this.ask('nsfw', image)) as NsfwClasses | null;
  }

  /** How many tensors tfjs holds (a leak test: it must not grow with use). */
  async tensors(): Promise<number | null> {
    const answer = (await this.ask('tensors', Buffer.alloc(0))) as { tensors: number } | null;
    return answer?.tensors ?? null;
  }

  /** Whether the models loaded (starting the thread when it is not running). */
  ready(): Promise<boolean> {
    this.start();
    return this.loaded ?? Promise.resolve(false);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.closed = true;
    this.settleAll();
    if (worker) await worker.terminate();
  }

  private start(): void {
    if (this.worker || this.failed || this.closed) return;
    const worker = new Worker(this.workerFile);
    // The thread must not keep a stopping process alive.
    worker.unref();
    this.worker = worker;
    this.loaded = new Promise<boolean>((resolve) => {
      worker.on('message', (message: Reply | Ready) => {
        if ('ready' in message) {
          if (message.ready) {
            this.logger.info({ loadMs: message.loadMs }, 'moderation models loaded');
          } else {
            this.logger.error({ err: message.error }, 'moderation models failed to load: selfies go to moderators');
            this.failed = true;
            this.settleAll();
          }
          resolve(message.ready);
          return;
        }
        const settle = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (!message.ok) this.logger.warn({ err: message.error }, 'moderation model failed on an image');
        settle?.(message);
      });
      worker.on('error', (error) => {
        this.logger.error({ err: error }, 'moderation model thread failed');
      });
      // 'exit' follows an uncaught error too: whatever waits fails now, and the next request starts a thread.
      worker.on('exit', (code) => {
        if (this.worker !== worker) return;
        if (!this.closed) this.logger.error({ code }, 'moderation model thread exited');
        this.worker = undefined;
        this.loaded = undefined;
        this.settleAll();
        resolve(false);
      });
    });
  }

  private settleAll(): void {
    for (const settle of this.pending.values()) settle(null);
    this.pending.clear();
  }

  private ask(kind: 'faces' | 'nsfw' | 'tensors', image: Buffer): Promise<unknown> {
    this.start();
    const worker = this.worker;
    if (!worker || !this.on) return Promise.resolve(null);
    if (this.pending.size >= this.maxQueued) {
      this.logger.warn({ kind, queued: this.pending.size }, 'moderation models busy: answer refused');
      return Promise.resolve(null);
    }
    const id = ++this.nextId;
    const deadline = Date.now() + this.answerMs;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.logger.warn({ kind }, 'moderation model answer timed out');
        resolve(null);
      }, this.answerMs);
      timer.unref();
      this.pending.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply?.ok ? reply.result : null);
      });
      // A copy of the bytes: the caller's buffer may be a slice of a pooled one.
      worker.postMessage({ id, kind, deadline, image: new Uint8Array(image) });
    });
  }
}
