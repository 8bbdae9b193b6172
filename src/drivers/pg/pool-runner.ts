import type { StatementRunner } from '../contract.js';
import type { Lend } from './pool.js';

/**
 * The runner of a pool of ours (the contract's StatementRunner): lend a client, send the statement prepared
 * (statement-client.ts: naming, the pooler fallback, array rows), give the client back, resolve.
 * pg's and pg-pool's documented callback forms, so one promise per statement in all. The client
 * goes back with `release()` after success and failure alike: pg-pool itself discards a client
 * whose connection broke, and the client destroys itself after a timeout.
 */
export function poolStatementRunner(lend: Lend): StatementRunner {
  return {
    run<R>(statement: Parameters<StatementRunner['run']>[0], parameters: readonly unknown[], map: (rows: unknown[][]) => R): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        lend((lendError, client) => {
          if (lendError || client === undefined) return reject(lendError ?? new Error('petstore-router: the pool lent no client'));
          client.sendPrepared(statement, parameters as unknown[], (error, result) => {
            client.release();
            if (error) return reject(error);
            try {
              resolve(map(result!.rows));
            } catch (mapError) {
              reject(mapError instanceof Error ? mapError : new Error(String(mapError)));
            }
          });
        });
      });
    },
  };
}
