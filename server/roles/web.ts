import { once } from 'node:events';
import type { Server, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { answerClientErrorsInJson } from '../http/clientErrors.ts';

/** The HTTP side of a web (or all-in-one) process: the listening server and its graceful close. */
export interface WebServer {
  /** The port really taken (PORT=0 picks a free one). */
  port: number;
  /**
   * Stops accepting connections and lets the requests in flight finish, for up to `graceMs`; then cuts what
   * is left. Event streams must already have been told to end (the shutdown signal does that).
   */
  close(graceMs: number): Promise<'drained' | 'cut'>;
}

/** How often idle kept-alive connections are closed while draining: each one a finished request leaves. */
const idleSweepMs = 100;

/** Part of the composition root (server/main.ts): listens with the app and knows how to stop gracefully. */
export async function listenWeb(app: Koa, port: number, host: string): Promise<WebServer> {
  const server: Server = app.listen(port, host);
  answerClientErrorsInJson(server);
  // Responses not yet answered: when the process stops, they are told `Connection: close`, so a client does
  // not send its next request down a connection about to go away (it opens one to another process).
  const open = new Set<ServerResponse>();
  let closing = false;
  server.on('request', (_req, res: ServerResponse) => {
    if (closing) res.setHeader('Connection', 'close');
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    async close(graceMs) {
      closing = true;
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const sweep = setInterval(() => server.closeIdleConnections(), idleSweepMs);
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'cut'>((resolve) => (timer = setTimeout(() => resolve('cut'), graceMs)));
      const outcome = await Promise.race([closed.then(() => 'drained' as const), deadline]);
      clearInterval(sweep);
      clearTimeout(timer);
      if (outcome === 'cut') {
        server.closeAllConnections();
        await closed;
      }
      return outcome;
    },
  };
}
