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
    onResponse: (event: ResponseEvent): void => {
      pending.push(accessLineText(event));
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

/** The fields of one line, in pino's order; absent values are left out (built by assignment: no spread per field). */
export function accessLine(event: ResponseEvent): Record<string, unknown> {
  const line: Record<string, unknown> = { level: 30, time: Date.now(), pid: process.pid, msg: 'request completed', reqId: event.requestId };
  if (event.traceId !== undefined) line.traceId = event.traceId;
  line.method = event.request.method;
  line.url = pathAndQuery(event.request.url);
  if (event.route !== undefined) line.route = event.route;
  if (event.operationId !== undefined) line.operationId = event.operationId;
  line.status = event.status;
  line.responseTime = Math.round(event.durationMs * 1000) / 1000;
  if (event.keyId !== undefined) line.keyId = event.keyId;
  return line;
}

/**
 * {@link accessLine} as its JSON text and a newline, written field by field: JSON.stringify of the
 * whole object cost several times more (history: git log of docs/performance.md). Request ids
 * and key ids are validated or hex, so only the strings a client chose are escaped.
 */
export function accessLineText(event: ResponseEvent): string {
  let text = `{"level":30,"time":${Date.now()},"pid":${process.pid},"msg":"request completed","reqId":"${event.requestId}"`;
  if (event.traceId !== undefined) text += `,"traceId":"${event.traceId}"`;
  text += `,"method":${JSON.stringify(event.request.method)},"url":${JSON.stringify(pathAndQuery(event.request.url))}`;
  if (event.route !== undefined) text += `,"route":${JSON.stringify(event.route)}`;
  if (event.operationId !== undefined) text += `,"operationId":${JSON.stringify(event.operationId)}`;
  text += `,"status":${event.status},"responseTime":${Math.round(event.durationMs * 1000) / 1000}`;
  if (event.keyId !== undefined) text += `,"keyId":"${event.keyId}"`;
  return `${text}}\n`;
}

/** `/v1/pets?limit=2` of `http://host/v1/pets?limit=2`. */
function pathAndQuery(href: string): string {
  const start = href.indexOf('/', href.indexOf('://') + 3);
  const hash = href.indexOf('#');
  return start === -1 ? '/' : hash === -1 ? href.slice(start) : href.slice(start, hash);
}
