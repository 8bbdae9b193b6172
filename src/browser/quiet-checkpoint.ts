// PostgreSQL logs a sequence 32 values ahead of the last id it gave; a directory left without a
// clean stop recovers to the logged value, so the next id would skip up to 32. A page cannot wait
// for PGlite's close when it is reloaded or closed, so the PGlite holding a directory checkpoints
// QUIET_MS after its last write: the data files then hold the true last id,
// and recovery from that checkpoint starts there (tested: ids go on without a gap after a reload).
import type { PGliteInstance as PGlite } from '../drivers/pglite/database.js';

const QUIET_MS = 250;
const WRITE = /^\s*(?:insert|update|delete|with|create|alter|drop)\b/i;

/** Call `after(sql)` when a statement of `pglite` ended (without SQL text: a transaction); `stop()` before closing it. */
export function checkpointWhenQuiet(pglite: PGlite) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let written = false;
  let stopped = false;
  const checkpoint = () => {
    timer = undefined;
    if (!written || stopped) return;
    written = false;
    pglite.exec('checkpoint').catch(() => {}); // best effort: a missed one costs a gap in ids, nothing else
  };
  return {
    after(sql?: string): void {
      // Only a write (re)starts the wait: reads never put the checkpoint off.
      if (stopped || !(sql === undefined || WRITE.test(sql))) return;
      written = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(checkpoint, QUIET_MS);
    },
    stop(): void {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
