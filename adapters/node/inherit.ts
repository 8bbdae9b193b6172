/**
 * Gives a lazy wrapper's prototype every member of a web class (`Request.prototype`,
 * `Response.prototype`) that the wrapper does not define itself, each delegating to the real
 * object the wrapper builds on demand (`real(self)`). The wrapper then stays complete as the
 * platform adds members, instead of listing each by hand (srvx does the same, src/_inherit.ts).
 * Only the class's own public prototype is read: no instance internals.
 */
export function delegateMissing<W extends object, T extends object>(target: W, source: object, real: (self: W) => T): void {
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
