import path from 'node:path';
import { ensureServerBuilt, entries, outputFile } from '../../scripts/buildServer.mjs';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The tests start the server and the commands as production does (scripts/start.mjs): compiled JavaScript
 * run by plain node. Through tsx each start compiled a few hundred files again, in two processes (tsx's own
 * and its node child): 1.4-2.6 CPU-seconds a start of the server against 0.4 compiled (30 November 2026), on
 * a CI whose two cores are always busy. Built once into a folder of the checkout (packages resolve from its
 * node_modules) and again only when a source changed (scripts/buildServer.mjs staleReason); scripts/start.test.ts
 * still builds a fresh one of its own to test the build itself.
 */
const outdir = path.join(root, '.build-test-commands');

/** The production entries and the tests' own scripts (a process the test kills). */
const built = {
  ...entries,
  notificationWorker: 'server/test/notificationWorkerProcess.ts',
};

export type CompiledCommand = keyof typeof built;

let building: Promise<unknown> | undefined;

/**
 * The compiled file of a command (`node <file> …args`), built first when a source changed (a few hundred file
 * dates, looked at on every call). Workers running at once may each build: the files are written whole and
 * renamed into place, the chunks before the entries, and the same sources give the same files.
 */
export async function compiledCommand(name: CompiledCommand): Promise<string> {
  building ??= ensureServerBuilt(outdir, () => {}, built).finally(() => {
    building = undefined;
  });
  await building;
  return outputFile(name, outdir);
}

/** `node`'s arguments to run a compiled command, stack traces naming the TypeScript (as scripts/start.mjs). */
export async function compiledArgs(name: CompiledCommand, args: string[] = []): Promise<string[]> {
  return ['--enable-source-maps', await compiledCommand(name), ...args];
}
