import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import type { AppState } from './context.ts';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Vite puts content-hashed files under assets/: their name changes with their content. */
const immutable = 'public, max-age=31536000, immutable';
/** index.html and the unhashed public files must be revalidated so a deploy is seen at once. */
const revalidate = 'no-cache';

async function fileAt(file: string): Promise<Stats | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? info : null;
  } catch {
    return null;
  }
}

/** A classic script written in the page (no src): its text up to the first `</script`, as the parser reads it. */
const inlineScript = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script/gi;

/**
 * The CSP sources that allow a page's inline scripts, `'sha256-…'` of each script's text as the browser
 * hashes it (UTF-8, exactly as written). Read again when the file changes (a new build under a running
 * server), otherwise from memory.
 */
function inlineScriptHashes(): (file: string, info: Stats) => Promise<string[]> {
  const known = new Map<string, { version: string; hashes: string[] }>();
  return async (file, info) => {
    const version = `${info.size}-${info.mtimeMs}`;
    const cached = known.get(file);
    if (cached?.version === version) return cached.hashes;
    const html = await readFile(file, 'utf8');
    const hashes = [...html.matchAll(inlineScript)].map(
      (match) =>
        `'sha256-${createHash('sha256')
          .update(match[1] ?? '', 'utf8')
          .digest('base64')}'`,
    );
    known.set(file, { version, hashes });
    return hashes;
  };
}

/**
 * Serves the built app (miniapp/dist): its files as they are, and index.html for every other GET outside
 * /api/ so the client-side router can take the path (SPA fallback). Registered after the API routes.
 */
export function staticApp(distDir: string): Middleware<AppState> {
  const root = path.resolve(distDir);
  const indexFile = path.join(root, 'index.html');
  const hashesOf = inlineScriptHashes();
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) return;

    let requested: string;
    try {
      requested = decodeURIComponent(ctx.path);
    } catch {
      return;
    }
    // Resolve inside the root only: "..", encoded or not, never leaves it.
    const file = path.join(root, path.normalize(`/${requested}`));
    let target = file.startsWith(root + path.sep) ? file : null;
    let info = target ? await fileAt(target) : null;
    if (!info || !target) {
      // A missing asset is a real 404 (an old tab asking for a file of a previous deploy); paths are routes.
      if (path.extname(requested) !== '' && !requested.endsWith('.html')) return;
      target = indexFile;
      info = await fileAt(indexFile);
      if (!info) return;
    }
    const relative = path.relative(root, target);
    ctx.status = 200;
    ctx.type = contentTypes[path.extname(target).toLowerCase()] ?? 'application/octet-stream';
    ctx.lastModified = info.mtime;
    ctx.set('Cache-Control', relative.startsWith(`assets${path.sep}`) ? immutable : revalidate);
    // index.html runs boot.js inline (issue 41): its CSP allows that script by its hash. Set on a 304 too,
    // whose headers replace the stored ones the browser renders its copy with.
    if (target.endsWith('.html')) ctx.state.scriptHashes = await hashesOf(target, info);
    // The build wrote .br/.gz twins of its text files (miniapp/compressPlugin.ts): send the smaller one accepted.
    let sent = target;
    ctx.vary('Accept-Encoding');
    // Asked one by one: given several, `accepts` picks by the browser's order, and browsers list gzip first.
    const encoding =
      ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null;
    if (encoding) {
      const twin = `${target}.${encoding === 'br' ? 'br' : 'gz'}`;
      const twinInfo = await fileAt(twin);
      if (twinInfo) {
        sent = twin;
        info = twinInfo;
        ctx.set('Content-Encoding', encoding);
      }
    }
    // Revalidation (index.html and boot.js are no-cache; issue 41): a browser holding this version sends
    // If-None-Match (or If-Modified-Since) and gets an empty 304 instead of the file again. The tag names
    // the representation sent (size and time of the twin or the file), as nginx's does.
    ctx.etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.length = info.size;
    if (ctx.method === 'GET') ctx.body = createReadStream(sent);
  };
}
