// `cors` of createPetStore: the allowed origins exactly as browsers send them, and the preflight cache time.
import { checkOptionNames, isObject, optionError, wholeAtLeast } from './check.js';

const WHERE = 'createPetStore';
const DEFAULT_MAX_AGE_SECONDS = 600;

/** `cors`, checked: `'*'` or the origins, and the seconds a browser may cache a preflight. */
export function checkCors(cors: unknown): { origins: readonly string[] | '*'; maxAgeSeconds: number } {
  if (!isObject(cors)) {
    throw optionError(WHERE, 'options.cors', "an object { origins: ['https://app.example'] | '*' }, or absent for no CORS", cors);
  }
  checkOptionNames(WHERE, cors, ['origins', 'maxAgeSeconds'], 'options.cors');
  const { origins, maxAgeSeconds = DEFAULT_MAX_AGE_SECONDS } = cors;
  if (!wholeAtLeast(maxAgeSeconds, 0)) {
    throw optionError(WHERE, 'options.cors.maxAgeSeconds', 'a whole number of seconds, 0 or more', maxAgeSeconds);
  }
  if (origins === '*') return { origins, maxAgeSeconds };
  if (!Array.isArray(origins) || origins.length === 0) {
    throw optionError(WHERE, 'options.cors.origins', "'*' or a non-empty list of origins", origins);
  }
  origins.forEach(checkOrigin);
  return { origins: origins as string[], maxAgeSeconds };
}

/** An origin as a browser serialises it: scheme, host and (non-default) port, nothing else. */
function checkOrigin(origin: unknown, i: number): void {
  let serialised: string | undefined;
  try {
    serialised = typeof origin === 'string' ? new URL(origin).origin : undefined;
  } catch {
    serialised = undefined;
  }
  if (serialised !== origin || serialised === 'null') {
    const got = typeof origin === 'string' ? JSON.stringify(origin) : undefined;
    throw optionError(
      WHERE,
      `options.cors.origins[${i}]`,
      'an origin as browsers send it',
      origin,
      'scheme://host[:port], no path or trailing slash',
      got,
    );
  }
}
