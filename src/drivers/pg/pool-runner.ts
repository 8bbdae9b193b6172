import type { StatementRunner } from '../statement-runner.js';
import type { Lend } from './pool.js';

/**
 * The direct path for the store's own statements on a pool of ours (statement-runner.ts): lend a
 * client, send the statement through the same {@link StatementClient} Kysely's path uses (naming,
 * the pooler fallback, the statement timeout, array rows), give the client back, resolve. pg's and
 * pg-pool's documented callback forms, so one promise per statement in all.
 *
 * The client goes back as Kysely's PostgresDriver gives it back, with `release()` after success
 * and failure alike: pg-pool itself discards a client whose connection broke.
 */
export function poolStatementRunner(lend: Lend): StatementRunner {
  return {
    run<R>(sql: string, parameters: readonly unknown[], map: (rows: unknown[][]) => R): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        lend((lendError, client) => {
          if (lendError || client === undefined) return reject(lendError);
          client.send<unknown[]>(sql, parameters as unknown[], (error, result) => {
            client.release();
            if (error) return reject(error);
            try {
              resolve(map(result!.rows));
            } catch (mapError) {
              reject(mapError);
            }
          });
        });
      });
    },
  };
}
