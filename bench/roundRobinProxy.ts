/**
 * A minimal round-robin HTTP balancer for the scale bench: each request goes to the next of the targets
 * given on the command line, bodies streamed both ways over kept-alive connections. Run as a child process
 * (fork), so it does not share the load generator's event loop; it reports its address over IPC and stops
 * when the parent disconnects.
 */
import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const targets = process.argv.slice(2).map((t) => new URL(t));
if (targets.length === 0) throw new Error('usage: roundRobinProxy.ts <target url>...');
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
let turn = 0;

const server = createServer((req, res) => {
  const target = targets[turn++ % targets.length] as URL;
  const forwarded = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'upstream failed', code: 'bad_gateway' }));
  });
  req.pipe(forwarded);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1');
await once(server, 'listening');
process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close();
  agent.destroy();
});
