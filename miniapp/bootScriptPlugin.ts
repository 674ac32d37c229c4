import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * public/boot.js is the one script every page waits for in <head> (issue 41), and Vite copies public files
 * as they are: its comments, which say why each step is there, went to every visitor. The build sends it
 * minified (esbuild, ES5 as written, for the oldest webviews it still runs in); the source stays as
 * written. Before compressPlugin, whose twins are made from the minified file.
 */
export function bootScriptPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'iskra-boot-script',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const file = path.join(outDir, 'boot.js');
      const { code } = transformSync(readFileSync(file, 'utf8'), { minify: true, target: 'es5', loader: 'js' });
      writeFileSync(file, code);
    },
  };
}
