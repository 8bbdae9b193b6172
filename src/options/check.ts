// The one checker of options (src/options/*): one message style, `petstore-router: WHERE: OPTION
// must be EXPECTED (got KIND): WHAT TO PASS`, and unknown names refused with the closest valid one.

/**
 * What a wrong option value is, for the messages of options checked at creation. It names the kind of value, never its content: a string given where an
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

/**
 * Throws a TypeError for the first name of `options` that `known` lacks (a misspelling TypeScript
 * would have caught, passed from JavaScript), naming the closest valid one.
 *
 * @example
 * ```ts
 * checkOptionNames('createPetStore', { basepath: '/x' }, ['db', 'keys', 'basePath'])
 * // TypeError: petstore-router: createPetStore: options.basepath is not an option (got a string): did you mean basePath?
 * ```
 */
export function checkOptionNames(where: string, options: object, known: readonly string[], path = 'options'): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const closest = closestName(name, known);
    const hint = closest === undefined ? `the options are ${known.join(', ')}` : `did you mean ${closest}?`;
    const value = (options as Record<string, unknown>)[name];
    throw new TypeError(`petstore-router: ${where}: ${path}.${name} is not an option (got ${kindOf(value)}): ${hint}`);
  }
}

/** A plain object of options (not an array, not a promise). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isThenable(value);
}

/** An integer of at least `least`. */
export function wholeAtLeast(value: unknown, least: number): value is number {
  return Number.isInteger(value) && (value as number) >= least;
}

/** Where a server listens: the check and the words of every serve helper's `port` and host option. */
export const LISTEN = {
  port: (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65_535,
  portExpected: 'a port (0 to 65535; 0 picks a free one)',
  host: (v: unknown) => typeof v === 'string' && v !== '',
  hostExpected: "an address, e.g. '127.0.0.1' or '0.0.0.0'",
} as const;

/**
 * A checker of the options of one function: `check(path, value, ok, expected, hint?)` throws the
 * error of `options.<path>` unless `value` is absent (undefined) or passes `ok`.
 */
export function checkerOf(where: string) {
  return (path: string, value: unknown, ok: (value: unknown) => boolean, expected: string, hint?: string): void => {
    if (value !== undefined && !ok(value)) throw optionError(where, `options.${path}`, expected, value, hint);
  };
}

/** The name of `known` fewest edits away from `name` (case aside), if it is near enough to be a slip. */
function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein distance: insertions, deletions and substitutions to turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}
