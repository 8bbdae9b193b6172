import type { AdapterBindings } from '../bindings.js';

/**
 * `request.headers.get(name)` (name in lower case): from the adapter's header getter when it gave
 * one (bindings.ts: same answer, without building a Headers), else from the Request.
 */
export function requestHeader(request: Request, name: string, bindings?: AdapterBindings): string | null {
  return bindings?.header ? bindings.header(name) : request.headers.get(name);
}
