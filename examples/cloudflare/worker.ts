// A whole Cloudflare Worker serving the pet store on PostgreSQL through Hyperdrive.
// Run locally (PostgreSQL migrated with `petstore-router migrate`): npx wrangler dev
import { createWorker } from 'petstore-router/cloudflare';

/** The bindings wrangler.jsonc declares. */
interface Env {
  HYPERDRIVE: { connectionString: string };
  PETSTORE_API_KEYS: string;
}

export default createWorker((env: Env) => ({
  database: env.HYPERDRIVE.connectionString,
  keys: env.PETSTORE_API_KEYS.split(','),
}));
