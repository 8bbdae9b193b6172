import type { Kysely } from 'kysely';
import { type Database, type PetStore, type PetStoreOptions, createPetStore } from '../../src/index.js';
import { withContract } from './contract.js';

/** The API key every behavioural test uses. */
export const KEY = 'test-key-0123456789';
export const ORIGIN = 'http://petstore.test';

/** How a request reaches the store: in-process, over a socket, ... A transport wraps one store. */
export interface Transport {
  name: string;
  /** Makes `store` reachable; returns how to call it and how to stop. */
  mount(store: PetStore): Promise<{ fetch: (request: Request) => Promise<Response>; close: () => Promise<void> }>;
}

/** Calls `store.fetch` directly: no server, no socket. */
export const inProcess: Transport = {
  name: 'in-process',
  async mount(store) {
    return { fetch: store.fetch, close: async () => {} };
  },
};

export interface CallInit {
  method?: string;
  headers?: Record<string, string> | [string, string][];
  /** A string is sent as is; anything else as JSON (no bigint: write int64 bodies as strings). */
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
  /** Omit the default `Authorization: Bearer KEY`. */
  anonymous?: boolean;
}

export type Call = (path: string, init?: CallInit) => Promise<Response>;

/**
 * A store on `db` with `options`, mounted through `transport`, and `call(path, init)` that sends
 * an authenticated request (JSON content type when there is a body).
 */
export async function openStore(
  transport: Transport,
  db: Kysely<Database>,
  options: Partial<PetStoreOptions> = {},
): Promise<{ call: Call; close: () => Promise<void>; store: PetStore }> {
  const store = createPetStore({ db, keys: [KEY], ...options });
  const mounted = await transport.mount(store);
  // Every response of every run is held against the OpenAPI document (test/helpers/contract.ts).
  const fetch = withContract(mounted.fetch, store.basePath, options);
  const call: Call = (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (!init.anonymous && !headers.has('authorization')) headers.set('authorization', `Bearer ${KEY}`);
    if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    // `duplex: 'half'` is required by Node's fetch for stream bodies; other bodies ignore it.
    const requestInit: RequestInit & { duplex: 'half' } = {
      method: init.method ?? 'GET',
      headers,
      body: (init.body ?? null) as BodyInit | null,
      duplex: 'half',
    };
    const request = new Request(ORIGIN + path, requestInit);
    return fetch(request);
  };
  return { call, close: mounted.close, store };
}
