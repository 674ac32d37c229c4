import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

export const preloadMetaName = 'iskra-preload';

/**
 * What boot.js fetches beside the entry script, by the path the page opens at (`*`: every path): the
 * module a screen starts from, found by its source file, with the chunks and styles it imports. Without
 * this a lazy chunk is asked for only once the entry has run (and the session answered): one more round
 * trip, 150 ms on a phone's network, before the first screen (issue 41).
 */
const screens: { path: string; source: RegExp }[] = [
  // The API client, zod and the session's calls: the session check needs them on every first screen.
  { path: '*', source: /src[\\/]api[\\/]client\.ts$/ },
  // The landing (an anonymous visitor's first screen), the sign-in form, the deck with its card and calls.
  { path: '/', source: /src[\\/]screens[\\/]Landing[\\/]LandingScreen\.tsx$/ },
  { path: '/login', source: /src[\\/]screens[\\/]Auth[\\/]LoginScreen\.tsx$/ },
  { path: '/search', source: /src[\\/]screens[\\/]Search[\\/]SearchScreen\.tsx$/ },
];

function chunkOf(bundle: OutputBundle, source: RegExp): OutputChunk | undefined {
  return Object.values(bundle).find(
    (file): file is OutputChunk => file.type === 'chunk' && file.moduleIds.some((id) => source.test(id)),
  );
}

/** The chunk's file, the chunks it imports statically and their styles, but none already in `seen`. */
function filesOf(bundle: OutputBundle, chunk: OutputChunk, seen: Set<string>): string[] {
  if (seen.has(chunk.fileName)) return [];
  seen.add(chunk.fileName);
  const styles = [...(chunk.viteMetadata?.importedCss ?? [])].filter((style) => !seen.has(style));
  for (const style of styles) seen.add(style);
  const imported = chunk.imports.flatMap((name) => {
    const file = bundle[name];
    return file?.type === 'chunk' ? filesOf(bundle, file, seen) : [];
  });
  return [chunk.fileName, ...styles, ...imported];
}

/**
 * Writes `<meta name="iskra-preload" content="*=/assets/api-X.js;/search=/assets/search-Y.js,/assets/search-Z.css">`
 * into index.html for boot.js (public/boot.js), which adds the preload links for the page being opened.
 */
export function bootPreloadPlugin(): Plugin {
  return {
    name: 'iskra-boot-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, ctx) => {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        // What index.html loads anyway: the entry and everything it imports.
        const initial = new Set<string>();
        for (const file of Object.values(bundle))
          if (file.type === 'chunk' && file.isEntry) filesOf(bundle, file, initial);
        const entries = screens.flatMap(({ path, source }) => {
          const chunk = chunkOf(bundle, source);
          if (!chunk) throw new Error(`bootPreloadPlugin: no chunk holds ${source.source}`);
          // A page's list leaves out what every page preloads (`*`, listed first).
          const files = filesOf(bundle, chunk, new Set(initial));
          if (path === '*') for (const file of files) initial.add(file);
          return files.length > 0 ? [`${path}=${files.map((file) => `/${file}`).join(',')}`] : [];
        });
        return [
          { tag: 'meta', attrs: { name: preloadMetaName, content: entries.join(';') }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}
