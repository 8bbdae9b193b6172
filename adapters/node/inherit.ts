/**
 * Makes a lazy wrapper's prototype (`NodeHeaders.prototype`, ...) inherit from a web class's
 * (`Headers.prototype`, ...) read only when first needed: Node loads its fetch implementation
 * (undici, with TLS and HTTP/2) the first time a program touches `Headers`, `Request` or
 * `Response`, and a server answering through the wrappers' own members never needs it.
 *
 * Until then the wrapper's prototype inherits from a stand-in whose every trap (an `instanceof`
 * walking the chain, a member the wrapper lacks) first puts the class's prototype in its place
 * and gives the wrapper every member it lacks, each delegating to the real object the wrapper
 * builds on demand (`real(self)`); from then on the chain is the plain one, stand-in gone.
 * Only the class's own public prototype is read: no instance internals (srvx does the same
 * delegation, src/_inherit.ts).
 */
export function inheritLazily<W extends object, T extends object>(target: W, source: () => object, real: (self: W) => T): void {
  let resolved: object | undefined;
  const resolve = (): object => {
    if (resolved === undefined) {
      resolved = source();
      Object.setPrototypeOf(target, resolved);
      delegateMissing(target, resolved, real);
    }
    return resolved;
  };
  // After resolve() the lookup starts again at `target`: the delegate it was just given, not the
  // web class's own member (which would refuse a wrapper as its `this`).
  const standIn = new Proxy(Object.create(null) as object, {
    getPrototypeOf: () => resolve(),
    // `await` and promise resolution look up `then`, which no web class defines (the spec's
    // Headers, Request and Response have none): answered as from Object.prototype, not resolved.
    get: (_, key, receiver): unknown =>
      key === 'then' && resolved === undefined
        ? Reflect.get(Object.prototype, key, receiver)
        : (resolve(), Reflect.get(target, key, receiver)),
    set: (_, key, value, receiver) => (resolve(), Reflect.set(target, key, value, receiver)),
    has: (_, key) => (resolve(), Reflect.has(target, key)),
    getOwnPropertyDescriptor: () => (resolve(), undefined),
    ownKeys: () => (resolve(), []),
  });
  Object.setPrototypeOf(target, standIn);
}

/**
 * Gives `target` every member of `source` (a web class's prototype) that it does not define
 * itself, each delegating to `real(self)`: the wrapper stays complete as the platform adds members.
 */
function delegateMissing<W extends object, T extends object>(target: W, source: object, real: (self: W) => T): void {
  // Every named member, and the two well-known symbols these classes define (Headers'
  // Symbol.iterator, ReadableStream's Symbol.asyncIterator): public members only.
  for (const key of [...Object.getOwnPropertyNames(source), Symbol.iterator, Symbol.asyncIterator]) {
    if (key === 'constructor' || Object.hasOwn(target, key) || !Object.hasOwn(source, key)) continue;
    const desc = Object.getOwnPropertyDescriptor(source, key)!;
    if (desc.get) {
      Object.defineProperty(target, key, {
        configurable: true,
        enumerable: desc.enumerable,
        get(this: W) {
          return (real(this) as Record<string | symbol, unknown>)[key];
        },
      });
    } else if (typeof desc.value === 'function') {
      Object.defineProperty(target, key, {
        configurable: true,
        enumerable: desc.enumerable,
        writable: true,
        value(this: W, ...args: unknown[]) {
          const object = real(this) as Record<string | symbol, (...a: unknown[]) => unknown>;
          return object[key]!(...args);
        },
      });
    }
  }
}
