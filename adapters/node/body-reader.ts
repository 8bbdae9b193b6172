import type { IncomingMessage } from 'node:http';
import { ApiError, ErrorCode } from 'petstore-router';

/** Pulls a body's chunks, as the reader of a `ReadableStream` does. */
export interface BodyReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
}

/**
 * How much body the bridge reads, and how slowly: past `maxBytes` a 413; a body still arriving
 * `timeoutMs` after its read began, plus one second per `minBytesPerSecond` bytes received, a 408.
 */
export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
  minBytesPerSecond: number;
}

/** What the bridge needs to know about the request body once the response is ready. */
export interface BodyState {
  /** Someone started reading the body (so Node will not discard the rest by itself). */
  started: boolean;
  /** More than the bridge's `maxBodyBytes` arrived: reading stopped and the connection must close. */
  overCap: boolean;
  /** The consumer stopped reading (cancelled the reader or the stream). */
  cancelled: boolean;
}

type Waiter = { resolve: (result: ReadableStreamReadResult<Uint8Array>) => void; reject: (error: unknown) => void };

/**
 * The one reader of a Node request body in the bridge: chunks are pulled (the socket is paused
 * while nobody asks), at most `maxBytes` are read (past them reading stops, `state.overCap` is
 * set and the read fails with a 413 ApiError), a body that arrives too slowly while someone waits
 * for it fails the read with a 408 ApiError (the time allowed grows with the bytes received, so
 * a large body at a fair rate always fits; a drip of a byte a second never does), and a client
 * that leaves mid-body fails the pending read instead of leaving it waiting. The web stream of `request.body` (see
 * {@link bodyStream}) reads through it.
 */
export class NodeBodyReader implements BodyReader {
  readonly #req: IncomingMessage;
  readonly #state: BodyState;
  readonly #limits: BodyLimits;
  #received = 0;
  #startedAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #queue: Uint8Array[] = [];
  #ended = false;
  #failure: Error | undefined;
  #waiter: Waiter | undefined;
  /** Who waits for the whole body ({@link readAll}): chunks are kept as they come, unpaused. */
  #whole: { resolve: (bytes: Uint8Array<ArrayBuffer>) => void; reject: (error: unknown) => void } | undefined;

  constructor(req: IncomingMessage, state: BodyState, limits: BodyLimits) {
    this.#req = req;
    this.#state = state;
    this.#limits = limits;
  }

  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const next = this.#queue.shift();
    if (next !== undefined) return Promise.resolve({ done: false, value: next });
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    this.#start();
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }

  /**
   * The whole body, copied into one Uint8Array that owns its buffer (as `Body.bytes()` gives it),
   * in one promise: the reading methods of the lazy Request use it, so a body costs no promise per
   * chunk. Only on a reader nobody has read from.
   */
  readAll(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#state.started || this.#state.cancelled) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    return new Promise((resolve, reject) => {
      this.#whole = { resolve, reject };
      this.#start();
    });
  }

  #start(): void {
    if (!this.#state.started) {
      this.#state.started = true;
      this.#req.on('data', this.#onData).on('end', this.#onEnd).on('error', this.#onError).on('close', this.#onClose);
      if (!this.#req.complete && Number.isFinite(this.#limits.timeoutMs)) {
        this.#startedAt = performance.now();
        this.#arm(this.#limits.timeoutMs);
      }
    }
    this.#req.resume();
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(this.#checkPace, Math.max(1, Math.ceil(delayMs)));
    this.#timer.unref();
  }

  /** The body's deadline passed: fail it if it is still awaited and behind its pace, else look again when it would be. */
  readonly #checkPace = (): void => {
    this.#timer = undefined;
    if (this.#ended) return;
    const { timeoutMs, minBytesPerSecond } = this.#limits;
    const allowed = timeoutMs + (this.#received * 1_000) / minBytesPerSecond;
    const late = performance.now() - this.#startedAt - allowed;
    // Nobody waiting: the reader's consumer sets the pace, not the client; look again later.
    if (late < 0 || (this.#whole === undefined && this.#waiter === undefined)) return this.#arm(late < 0 ? -late : timeoutMs);
    this.#fail(
      new ApiError({
        status: 408,
        code: ErrorCode.requestTimeout,
        message: `the request body did not arrive in time (${timeoutMs / 1_000} s, plus 1 s per ${minBytesPerSecond} bytes received)`,
      }),
    );
  };

  /** Stops reading; a read still waiting ends (done), as a cancelled stream's pending read does. */
  cancel(): Promise<void> {
    this.#state.cancelled = true;
    this.#queue = [];
    this.#finish();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve({ done: true, value: undefined });
    return Promise.resolve();
  }

  #finish(): void {
    this.#ended = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#req.off('data', this.#onData).off('end', this.#onEnd).off('error', this.#onError).off('close', this.#onClose);
    this.#req.pause();
  }

  #fail(error: Error): void {
    this.#failure = error;
    this.#queue = [];
    this.#finish();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
    const whole = this.#whole;
    this.#whole = undefined;
    whole?.reject(error);
  }

  readonly #onData = (chunk: Buffer) => {
    this.#received += chunk.byteLength;
    if (this.#received > this.#limits.maxBytes) {
      this.#state.overCap = true;
      this.#fail(
        new ApiError({ status: 413, code: ErrorCode.payloadTooLarge, message: `the request body exceeds ${this.#limits.maxBytes} bytes` }),
      );
      return;
    }
    if (this.#whole !== undefined) {
      this.#queue.push(chunk);
      return;
    }
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#queue.push(chunk);
      this.#req.pause(); // nobody is reading: let the socket hold the rest
      return;
    }
    this.#waiter = undefined;
    waiter.resolve({ done: false, value: chunk });
  };

  readonly #onEnd = () => {
    // The listeners stay: after 'end' only 'close' (and perhaps 'error') can come, both ignored
    // once the body ended, and removing four listeners per request costs more than keeping them
    // for the request's last moments. Nothing to pause either: the stream has ended.
    this.#ended = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const whole = this.#whole;
    if (whole !== undefined) {
      this.#whole = undefined;
      whole.resolve(joined(this.#queue));
      this.#queue = [];
      return;
    }
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve({ done: true, value: undefined });
  };

  readonly #onError = (error: Error) => {
    if (!this.#ended) this.#fail(error);
  };

  // 'close' before 'end': the connection went away mid-body (Node may not emit 'error' then).
  readonly #onClose = () => {
    if (!this.#ended) this.#fail(new Error('the request closed before its body ended'));
  };
}

/**
 * `reader` as a web ReadableStream, pulled only when its consumer reads (highWaterMark 0), so an
 * unread body costs nothing and Node discards it after the response.
 */
export function bodyStream(reader: BodyReader): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** `chunks` copied into one plain Uint8Array that owns its whole buffer (Node's Buffers may be views of a larger one). */
function joined(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
