import { inheritLazily } from './inherit.js';

/**
 * The `Headers` of a Node request, read from `rawHeaders` until something else than `get` or
 * `has` is asked: those two scan the raw list (the values of every field of that name joined with
 * ", ", as Headers does; Node's parser already trimmed each value); every other member builds the
 * platform Headers once and delegates to it (inherit.ts), from then on `get` and `has` included.
 * `instanceof Headers` holds. test/node-bridge.test.ts holds it to a real one.
 */
export class NodeHeaders {
  readonly #raw: string[];
  #real: Headers | undefined;

  constructor(raw: string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    if (this.#real) return this.#real.get(name);
    const lower = name.toLowerCase();
    const raw = this.#raw;
    let value: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const field = raw[i]!;
      if (field.length === lower.length && field.toLowerCase() === lower) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** The platform Headers of `self`, built once from its raw fields, appended one by one. */
  static real(self: NodeHeaders): Headers {
    if (self.#real === undefined) {
      const headers = new Headers();
      const raw = self.#raw;
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      self.#real = headers;
    }
    return self.#real;
  }
}
inheritLazily(
  NodeHeaders.prototype,
  () => Headers.prototype,
  (self: NodeHeaders) => NodeHeaders.real(self),
);
