import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules', 'typescript7', 'bin', 'tsc');

/** A probe file: its text, and the lines `tsc` must refuse (those with a key the dictionary lacks). */
interface Probe {
  file: string;
  lines: string[];
}

/** The 1-based lines of `probe` that hold a key the type check must refuse (marked `// refused`). */
function refusedLines(probe: Probe): number[] {
  return probe.lines.flatMap((line, i) => (line.includes('// refused') ? [i + 1] : []));
}

/**
 * Runs `tsc --noEmit` with the real program's options (a tsconfig that extends `tsconfig`) over the probe
 * files and the module that declares the key types (`typings`), not the whole program: what the probes
 * import comes along, and the check takes seconds instead of a full type check's tens. Answers tsc's exit
 * code, its output and, per probe, the lines it found errors on. The files are unique to this run and
 * removed whatever happens.
 */
async function typecheckWith(
  tsconfig: string,
  typings: string,
  probes: Probe[],
): Promise<{ code: number; output: string; errorLines: Map<string, number[]> }> {
  const dir = path.dirname(path.join(root, tsconfig));
  const probeConfig = path.join(dir, `tsconfig.probe_${unique()}.json`);
  try {
    for (const probe of probes) writeFileSync(path.join(root, probe.file), probe.lines.join('\n') + '\n');
    const files = [typings, ...probes.map((p) => p.file)].map((file) => path.relative(dir, path.join(root, file)));
    writeFileSync(probeConfig, JSON.stringify({ extends: `./${path.basename(tsconfig)}`, include: [], files }));
    // tsc exits non-zero when it finds errors: that rejection is the answer wanted here, not a failure.
    const { code, output } = await promisify(execFile)(
      process.execPath,
      [tsc, '--noEmit', '--pretty', 'false', '-p', probeConfig],
      {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).then(
      ({ stdout }) => ({ code: 0, output: stdout }),
      (failure: unknown) => {
        const { code, stdout } = failure as { code?: unknown; stdout?: unknown };
        if (typeof code !== 'number' || typeof stdout !== 'string') throw failure;
        return { code, output: stdout };
      },
    );
    const errorLines = new Map<string, number[]>();
    for (const probe of probes) {
      const at = new RegExp(`^${probe.file.replace(/[.]/g, '\\.')}\\((\\d+),\\d+\\): error TS\\d+`, 'gm');
      errorLines.set(
        probe.file,
        [...new Set([...output.matchAll(at)].map((m) => Number(m[1])))].sort((a, b) => a - b),
      );
    }
    return { code, output, errorLines };
  } finally {
    for (const probe of probes) rmSync(path.join(root, probe.file), { force: true });
    rmSync(probeConfig, { force: true });
  }
}

const unique = () => `${process.pid}_${randomUUID().slice(0, 8)}`;

// One full tsc run per program (the app's, and the server's with the bot): each takes tens of seconds on a
// busy machine, so the two run side by side and the tests wait generously.
describe('translation keys are typed by locales/en.json', { timeout: 600_000, concurrent: true }, () => {
  it("refuses a key en.json lacks in the app's t(), and a key of the server's sections the app never downloads", async () => {
    const probe: Probe = {
      file: `miniapp/src/translationKeyProbe_${unique()}.ts`,
      lines: [
        "import { useTranslation } from 'react-i18next';",
        "import { genderContext } from '@locales/genderContext.ts';",
        'export function useProbe(gender: string | null): string[] {',
        '  const { t } = useTranslation();',
        '  return [',
        "    t('app.premium.choose'),",
        // Plural and gendered keys are asked for by their base name (en.json holds only _one/_other, _male/_female).
        "    t('app.premium.periodDays', { count: 3 }),",
        "    t('app.matchOverlay.text', { context: genderContext(gender), name: 'Anna' }),",
        "    t('no.such.key'), // refused",
        "    t('mail.verification.subject', { code: '123456' }), // refused",
        '  ];',
        '}',
      ],
    };
    const { code, output, errorLines } = await typecheckWith('miniapp/tsconfig.json', 'miniapp/src/i18n.ts', [probe]);
    expect(code).not.toBe(0);
    expect(output).toContain('"no.such.key"');
    expect(errorLines.get(probe.file)).toEqual(refusedLines(probe));
  });

  it("refuses a key en.json lacks in the server's translatorFor and in the bot's ctx.t", async () => {
    const id = unique();
    const server: Probe = {
      file: `server/translationKeyProbe_${id}.ts`,
      lines: [
        "import { genderContext } from '../locales/genderContext.ts';",
        "import { translatorFor } from '../locales/index.ts';",
        "const t = translatorFor('en');",
        'export const texts = (gender: string | null): string[] => [',
        "  t('mail.verification.subject', { code: '123456' }),",
        "  t('mail.notify.matchText', { context: genderContext(gender), name: 'Anna' }),",
        "  t('no.such.key'), // refused",
        '];',
      ],
    };
    const bot: Probe = {
      file: `bot/translationKeyProbe_${id}.ts`,
      lines: [
        "import type { BotContext } from './context.ts';",
        'export const texts = (ctx: BotContext): string[] => [',
        "  ctx.t('bot.help'),",
        "  ctx.t('no.such.bot.key'), // refused",
        '];',
      ],
    };
    const { code, output, errorLines } = await typecheckWith('tsconfig.json', 'locales/index.ts', [server, bot]);
    expect(code).not.toBe(0);
    expect(output).toContain('"no.such.key"');
    expect(output).toContain('"no.such.bot.key"');
    expect(errorLines.get(server.file)).toEqual(refusedLines(server));
    expect(errorLines.get(bot.file)).toEqual(refusedLines(bot));
  });
});
