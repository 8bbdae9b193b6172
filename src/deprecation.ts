/**
 * Deprecation of `GET /pets/{petId}`: RFC 9745 `Deprecation`, RFC 8594 `Sunset` and a
 * `successor-version` Link on every response after authentication; 410 Gone from the sunset
 * instant on, judged by the injected clock (`options.now`).
 */

/** Default deprecation instant: 2026-11-21T00:00:00Z. */
export const DEFAULT_DEPRECATED_AT = new Date('2026-11-21T00:00:00Z');
/** The spec's removal date: 5 December 2030. */
export const DEFAULT_SUNSET_AT = new Date('2030-12-05T00:00:00Z');

export interface DeprecationPolicy {
  deprecatedAt: Date;
  sunsetAt: Date;
}

/** The two date fields per policy, formatted once (a policy's dates do not change). */
const formatted = new WeakMap<DeprecationPolicy, { deprecation: string; sunset: string }>();

/** The headers, given the absolute URL of the successor (`…/pets`). */
export function deprecationHeaders(policy: DeprecationPolicy, successorUrl: string): Record<string, string> {
  let dates = formatted.get(policy);
  if (dates === undefined) {
    dates = { deprecation: `@${Math.floor(policy.deprecatedAt.getTime() / 1000)}`, sunset: policy.sunsetAt.toUTCString() };
    formatted.set(policy, dates);
  }
  return { deprecation: dates.deprecation, sunset: dates.sunset, link: `<${successorUrl}>; rel="successor-version"` };
}

export function isSunset(policy: DeprecationPolicy, now: Date): boolean {
  return now.getTime() >= policy.sunsetAt.getTime();
}
