// libpq's multi-host connection URLs (`postgres://u:p@h1:5432,h2:5433,h3/db?target_session_attrs=read-write`),
// which node-postgres does not parse: split here into one single-host URL per host, which pg does.
// Parsed when the option is checked (options/pg.ts) and again where the pools are made.
import { optionError } from './check.js';

/** libpq's `target_session_attrs`: which server a connection must reach. */
export type SessionAttrs = 'any' | 'read-write' | 'read-only' | 'primary' | 'standby' | 'prefer-standby';

const WHERE = 'createPostgresDatabase';
const SESSION_ATTRS: readonly SessionAttrs[] = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'];

/** A URL's hosts and how to choose among them, libpq's way. */
export interface HostList {
  /** One URL per host, in the URL's order: the same user, database and parameters, one `host:port`. */
  readonly urls: readonly string[];
  /** `host:port` of each (never credentials), for messages and status. */
  readonly names: readonly string[];
  readonly sessionAttrs: SessionAttrs;
  /** `load_balance_hosts=random`: each new connection tries the hosts in a random order. */
  readonly random: boolean;
}

/** scheme, `user:pw@`, host list, then the path, query and fragment. */
const PARTS = /^((?:postgres|postgresql):\/\/)([^/?#]*@)?([^/?#@]*)(.*)$/s;
/** One host of the list: a name, an IPv4 address or a bracketed IPv6 address, then an optional port. */
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/**
 * The hosts of `url` when it needs more than pg gives (several hosts, `target_session_attrs` other
 * than `any`, or `load_balance_hosts`); undefined for a plain one-host URL, which goes to pg as it
 * is. A wrong list or value throws a TypeError naming `name` and what to write.
 */
export function hostList(url: string, name: string): HostList | undefined {
  const parts = PARTS.exec(url);
  if (parts === null) return undefined;
  const [, scheme, user = '', hosts = '', rest = ''] = parts;
  const query = new URLSearchParams(/\?([^#]*)/.exec(rest)?.[1] ?? '');
  const attrs = query.get('target_session_attrs') ?? 'any';
  const balance = query.get('load_balance_hosts') ?? 'disable';
  if (!hosts.includes(',') && attrs === 'any' && !query.has('load_balance_hosts')) return undefined;
  if (!(SESSION_ATTRS as readonly string[]).includes(attrs)) {
    throw optionError(
      WHERE,
      name,
      `a URL whose target_session_attrs is one of ${SESSION_ATTRS.join(', ')}`,
      url,
      undefined,
      `target_session_attrs=${JSON.stringify(attrs)}`,
    );
  }
  if (balance !== 'disable' && balance !== 'random') {
    throw optionError(
      WHERE,
      name,
      'a URL whose load_balance_hosts is disable or random',
      url,
      undefined,
      `load_balance_hosts=${JSON.stringify(balance)}`,
    );
  }
  query.delete('target_session_attrs');
  query.delete('load_balance_hosts');
  const search = query.size > 0 ? `?${query.toString()}` : '';
  const path = /^[^?#]*/.exec(rest)![0];
  const names = hosts.split(',').map((host) => oneHost(host, name));
  return {
    urls: names.map((host) => `${scheme}${user}${host}${path}${search}`),
    names,
    sessionAttrs: attrs as SessionAttrs,
    random: balance === 'random',
  };
}

/** `host:port` of one entry of the list (libpq's default port 5432 where it gives none). */
function oneHost(entry: string, name: string): string {
  const match = HOST.exec(entry.trim());
  const port = match?.[2] === undefined ? 5432 : Number(match[2]);
  if (match === null || port < 1 || port > 65_535) {
    throw optionError(
      WHERE,
      name,
      'a URL whose hosts are host or host:port, comma-separated',
      entry,
      'postgres://user:password@h1:5432,h2:5433/database',
      `the host ${JSON.stringify(entry)}`,
    );
  }
  return `${match[1]}:${port}`;
}
