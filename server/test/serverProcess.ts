import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { compiledArgs, type CompiledCommand } from './compiledCommands.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** One log line of the server (pino JSON); lines that are not JSON (a crash's stack) are kept as `msg`. */
export interface LogLine {
  msg?: string;
  port?: number;
  [key: string]: unknown;
}

/**
 * A real server process (server/main.ts compiled, as `npm start` runs it: compiledCommands.ts), or one of the
 * package's scripts, with only the environment given (and PATH). Its log is kept for assertions and for the message of a failing test.
 */
export class ServerProcess {
  readonly lines: LogLine[] = [];
  private text = '';
  private waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    const take = (chunk: Buffer) => {
      this.text += chunk.toString();
      let end: number;
      while ((end = this.text.indexOf('\n')) >= 0) {
        const line = this.text.slice(0, end);
        this.text = this.text.slice(end + 1);
        try {
          this.lines.push(JSON.parse(line) as LogLine);
        } catch {
          this.lines.push({ msg: line });
        }
      }
      for (const wake of this.waiters.splice(0)) wake();
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.exited = (once(child, 'exit') as Promise<[number | null]>).then(([code]) => {
      for (const wake of this.waiters.splice(0)) wake();
      return code;
    });
  }

  /** One of the compiled commands (`main`: server/main.ts, `migrate`: scripts/migrate.ts), as production runs it. */
  static async start(name: string, command: CompiledCommand, env: Record<string, string>): Promise<ServerProcess> {
    return ServerProcess.node(name, await compiledArgs(command), env);
  }

  /** `node` with these arguments in the repository (a compiled file: scripts/start.test.ts). */
  static node(name: string, args: string[], env: Record<string, string>): ServerProcess {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServerProcess(name, child);
  }

  /** The whole log so far, for failure messages. */
  log(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n');
  }

  /** Waits for a log line matching `test`; fails when the process exits first or after `timeoutMs`. */
  async waitForLine(test: (line: LogLine) => boolean, timeoutMs = 60_000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(test);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`${this.name} exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.log()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${this.name}: no such log line within ${timeoutMs} ms:\n${this.log()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** A web process's port, from its "listening" line (it was started with PORT=0). */
  async listeningPort(timeoutMs = 60_000): Promise<number> {
    const line = await this.waitForLine(
      (l) => typeof l.port === 'number' && (l.msg ?? '').startsWith('Iskra is listening'),
      timeoutMs,
    );
    return line.port ?? 0;
  }

  /** Ends the process at once (the crash a machine or a kill -9 makes) and waits for it to be gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}
