/**
 * What a wrong option value is, for the messages of options checked at creation (options.ts, the
 * drivers' entry points). It names the kind of value, never its content: a string given where an
 * object belongs may be a key or a URL with a password in it.
 *
 * @example
 * ```ts
 * kindOf(new PGlite()) // 'a PGlite'
 * kindOf('postgres://u:secret@h/db') // 'a string'
 * ```
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object') return `a ${typeof value}`;
  if (isThenable(value)) return 'a Promise';
  if (Array.isArray(value)) return 'an array';
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  if (typeof name !== 'string' || name === '' || name === 'Object') return 'an object';
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** True for a promise or any object with a `then` method: an `await` was probably forgotten. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The error of an option checked at creation: `${where}: ${option} must be ${expected} (got …)`,
 * then what to pass instead. A TypeError, thrown synchronously by the function given the option.
 * `got` names the value when its kind is known better than by its class (bundled libraries'
 * class names are minified: a PGlite's class may be called `q`).
 */
export function optionError(
  where: string,
  option: string,
  expected: string,
  value: unknown,
  hint?: string,
  got = kindOf(value),
): TypeError {
  const awaitHint = isThenable(value) ? `add await: \`${option.replace(/^options\./, '')}: await …\`` : undefined;
  const help = awaitHint ?? hint;
  return new TypeError(`petstore-router: ${where}: ${option} must be ${expected} (got ${got})${help ? `: ${help}` : ''}`);
}
