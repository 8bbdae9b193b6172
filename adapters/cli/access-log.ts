import type { ResponseEvent } from 'petstore-router';

/** A pipe takes a write of at most this many bytes whole, so workers sharing stdout never cut a line. */
const ATOMIC_WRITE_BYTES = 4096;

/**
 * `serve --access-log`: one JSON line per finished request, pino/Fastify field names (`level` 30
 * is pino's "info", so pino-pretty and log shippers read it as is). Lines are gathered and written
 * once per turn of the event loop, in writes of whole lines of at most 4 KiB, instead of one
 * write(2) per request; whatever is left is written on exit. Never a key: only its keyId.
 */
export function createAccessLog(write: (chunk: string) => void = (chunk) => void process.stdout.write(chunk)) {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    let chunk = '';
    for (const line of lines) {
      if (chunk.length > 0 && chunk.length + line.length > ATOMIC_WRITE_BYTES) {
        write(chunk);
        chunk = '';
      }
      chunk += line;
    }
    write(chunk);
  };
  process.on('exit', flush);
  return {
    onResponse(event: ResponseEvent): void {
      pending.push(`${JSON.stringify(accessLine(event))}\n`);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

/** The fields of one line; absent values are left out. */
export function accessLine(event: ResponseEvent) {
  return {
    level: 30,
    time: Date.now(),
    pid: process.pid,
    msg: 'request completed',
    reqId: event.requestId,
    ...(event.traceId === undefined ? {} : { traceId: event.traceId }),
    method: event.request.method,
    url: pathAndQuery(event.request.url),
    ...(event.route === undefined ? {} : { route: event.route }),
    ...(event.operationId === undefined ? {} : { operationId: event.operationId }),
    status: event.status,
    responseTime: Math.round(event.durationMs * 1000) / 1000,
    ...(event.keyId === undefined ? {} : { keyId: event.keyId }),
  };
}

/** `/v1/pets?limit=2` of `http://host/v1/pets?limit=2`. */
function pathAndQuery(href: string): string {
  const start = href.indexOf('/', href.indexOf('://') + 3);
  return start === -1 ? '/' : href.slice(start).replace(/#.*$/, '');
}
