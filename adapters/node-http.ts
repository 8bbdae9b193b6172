import { createRequire } from 'node:module';

/**
 * `node:http`, required rather than imported: an ES import of a built-in reads every export, and
 * node:http's WebSocket and kin then load Node's fetch implementation (undici, with TLS and
 * HTTP/2), which a server never uses.
 */
export const nodeHttp = createRequire(import.meta.url)('node:http') as typeof import('node:http');
