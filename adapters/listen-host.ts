// The one default listen address of every serve helper and the CLI: loopback, so a server started
// without thinking is not reachable from the network (issue 38). Pass '0.0.0.0' (or '::') to expose it.
export const DEFAULT_HOST = '127.0.0.1';
