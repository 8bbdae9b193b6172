import { connect } from 'node:net';

/**
 * What a pg Client knows of its backend for a cancel request: the key data PostgreSQL (or a pooler
 * in front of it) sent at connect, and where it connected. These are plain fields of pg's Client
 * (the ones its own cancel code and Kysely's read); when one is missing, nothing is sent.
 */
export interface CancelTarget {
  processID?: number | null;
  secretKey?: number | null;
  host?: string;
  port?: number;
}

/** CancelRequest's code in PostgreSQL's protocol (1234 << 16 | 5678). */
const CANCEL_REQUEST_CODE = 80877102;

/**
 * Sends PostgreSQL's CancelRequest for whatever `target`'s backend is running now, on a new
 * connection (protocol "Canceling Requests in Progress"). A transaction-mode pooler such as
 * PgBouncer answers the request itself and forwards it to the server the client is linked to, so
 * this works behind one, unlike `pg_cancel_backend(pid)`, whose pid may be another client's backend
 * there. PostgreSQL never replies (it closes the connection); the running query fails with SQLSTATE 57014.
 */
export function sendCancelRequest(target: CancelTarget): void {
  const { processID, secretKey, host, port } = target;
  if (typeof processID !== 'number' || typeof secretKey !== 'number' || typeof port !== 'number' || !host) return;
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(processID, 8);
  message.writeInt32BE(secretKey, 12);
  const socket = host.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host);
  socket.on('error', () => {});
  socket.setTimeout(5_000, () => socket.destroy());
  // Like libpq's PQcancel: send, then wait for the other side to close. Closing first makes a
  // pooler drop the request (PgBouncer: "client unexpected eof") before it reaches the server.
  socket.on('connect', () => socket.write(message));
  socket.on('end', () => socket.end());
}
