/**
 * The HTTP side of the discovery bench, in its own process so the load generator does not share the
 * server's event loop: the real app over the bench database, and a bare Koa route answering a fixed body
 * of the same size. Reports both addresses to the parent over IPC and runs until the parent disconnects.
 */
import path from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { openDatabase } from '../db/client.ts';
import { createApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import { listen } from './benchKit.ts';

const [file, bareBody] = process.argv.slice(2);
if (!file || !bareBody) throw new Error('usage: benchDiscoveryServer.ts <sqlite file> <bare body json>');

const { db, probe } = openDatabase({ url: `sqlite:${file}`, dataDir: path.dirname(file) });
const iskra = await listen(
  createApp({
    db,
    dialect: 'sqlite',
    databaseProbe: probe,
    logger: createLogger('silent'),
    mailer: { send: () => Promise.resolve() },
    uploadsDir: path.join(path.dirname(file), 'uploads'),
    publicUrl: 'http://localhost:8080',
    sessionSecret: 'bench-secret-bench-secret-bench-secret',
  }),
);
const bareApp = new Koa();
const bareRouter = new Router({ prefix: '/api' });
const body: unknown = JSON.parse(bareBody);
bareRouter.get('/search', (ctx) => {
  ctx.body = body;
});
bareApp.use(bareRouter.routes());
const bare = await listen(bareApp);

process.send?.({ iskra: iskra.url, bare: bare.url });
process.on('disconnect', () => {
  iskra.close();
  bare.close();
  void db.destroy();
});
