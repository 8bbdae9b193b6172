import type { ResponseEvent } from './on-response.js';
import { type StatementObserver, observerScope } from '../storage/observer.js';
import type { Handle } from './shed.js';
import type { RequestTrace, Telemetry } from './tracing.js';

/** What one request noted: its database time, its route, its span. */
class Observation implements StatementObserver {
  dbMs = 0;
  route: string | undefined = undefined;

  constructor(
    readonly telemetry: Telemetry | undefined,
    readonly trace: RequestTrace | undefined,
  ) {}

  statement(sql: string): (error?: unknown) => void {
    const started = performance.now();
    const endSpan = this.trace && this.telemetry!.startStatement(this.trace, sql);
    return (error) => {
      this.dbMs += performance.now() - started;
      endSpan?.(error);
    };
  }
}

/**
 * A wrapper of the store's handler (`wrap(next)`) so each request runs in an observation scope: its statements add to its database
 * time (storage/statement.ts tells the observer of the scope they run in) and, with `telemetry`,
 * become child spans of its span. `serverTiming` adds `Server-Timing: db;dur=…, total;dur=…` to
 * the answer. `onResponse` must be given to the pipeline: it notes the route of the request whose
 * answer is being built, for the span's name.
 */
export function observing(options: { serverTiming: boolean; telemetry: Telemetry | undefined }) {
  const scope = observerScope(options.telemetry ? 'options.openTelemetry' : 'options.serverTiming');
  const { serverTiming, telemetry } = options;
  const wrap =
    (next: Handle): Handle =>
    async (request: Request) => {
      const started = performance.now();
      const trace = telemetry?.startRequest(request, new URL(request.url));
      const observation = new Observation(telemetry, trace);
      let response: Response;
      try {
        response = await scope.run(observation, () => (trace ? telemetry!.within(trace, () => next(request)) : next(request)));
      } catch (error) {
        if (trace) telemetry!.endRequest(trace, observation.route, 500, (performance.now() - started) / 1000);
        throw error;
      }
      const totalMs = performance.now() - started;
      if (serverTiming) response.headers.set('server-timing', `db;dur=${observation.dbMs.toFixed(1)}, total;dur=${totalMs.toFixed(1)}`);
      if (trace) telemetry!.endRequest(trace, observation.route, response.status, totalMs / 1000);
      return response;
    };
  const onResponse = (event: ResponseEvent) => {
    const observation = scope.getStore();
    if (observation instanceof Observation) observation.route = event.route;
  };
  return { wrap, onResponse };
}
