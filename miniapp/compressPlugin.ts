import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const compressible = new Set(['.js', '.css', '.json', '.html', '.svg', '.txt']);
/**
 * What a compressed answer costs beyond its body: the `Content-Encoding` header line. A twin that saves
 * less than this is not written (a tiny file goes as it is); a small first-load file such as Rolldown's
 * runtime helpers (0.7 kB, 0.4 kB in brotli) still gets one.
 */
const headerBytes = 32;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

/**
 * Writes a brotli (.br) and a gzip (.gz) twin beside every text file of the build, at the strongest
 * settings, once at build time: the server then sends the smaller twin the browser accepts without
 * compressing on every request (server/http/staticApp.ts). On slow mobile links this is most of the first load.
 */
export function compressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'iskra-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!compressible.has(path.extname(file))) continue;
        const source = readFileSync(file);
        const twins = {
          br: brotliCompressSync(source, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
          }),
          gz: gzipSync(source, { level: 9 }),
        };
        for (const [extension, twin] of Object.entries(twins)) {
          if (twin.length + headerBytes < source.length) writeFileSync(`${file}.${extension}`, twin);
        }
      }
    },
  };
}
