/**
 * `import-x/no-cycle`, but type-only imports count. import-x 4.x skips them with no option to do otherwise
 * (node_modules/eslint-plugin-import-x/lib/rules/no-cycle.js drops an `import type` edge both where the
 * linted file imports and while it walks the graph; its only knobs are maxDepth, ignoreExternal and
 * allowUnsafeDynamicCyclicDependency). A circle of types is still two modules that cannot be read, moved
 * or split apart, so this rule counts every static edge. Same resolver and settings,
 * same messages.
 *
 * An import is in a circle exactly when the module it imports can reach the importing file again, that is
 * when both lie in one strongly connected component of the import graph. import-x walks the graph afresh
 * from every import of every file, reading each module it meets with a full parse (15 % of the whole lint's
 * time here); this rule reads a module's imports with TypeScript's import scanner (`ts.preProcessFile`: no
 * syntax tree), resolves them with import-x's resolver and settings, finds the components once (Tarjan's
 * algorithm, each module and edge visited once per lint run) and answers each import by comparing two
 * numbers. The way round the circle, for the message, is searched only for an import that is in one.
 */
import { readFileSync, statSync } from 'node:fs';
import { isExternalModule, moduleVisitor, relative, resolve } from 'eslint-plugin-import-x/utils';
import ts from 'typescript';

/**
 * What the lint has learnt of the graph. An editor's ESLint lives on while files change: what was learnt is
 * forgotten as soon as a file read for it changed on disk (their times are checked at most once a second),
 * or the file being linted imports otherwise than its saved text did (its text is the editor's).
 */
const graph = {
  /** A module's path → its component's number, once its component is complete. */
  component: new Map(),
  /** A bare module name → whether it resolves outside the project (node_modules, Node's own). */
  external: new Map(),
  /** A module's path → the modules it imports (resolved, external ones left out), and the text's time. */
  edges: new Map(),
  nextComponent: 0,
  checkedAt: 0,
};

function forget() {
  graph.component.clear();
  graph.external.clear();
  graph.edges.clear();
  graph.nextComponent = 0;
}

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** Forgets the graph when a file it was read from changed since (checked at most once a second). */
function forgetIfChanged() {
  const now = Date.now();
  if (now - graph.checkedAt < 1_000) return;
  graph.checkedAt = now;
  for (const [path, { mtime }] of graph.edges) {
    if (mtimeOf(path) !== mtime) {
      forget();
      return;
    }
  }
}

/** The scripts whose imports the graph follows: what the linted files can import of ours. */
const scanned = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/**
 * The modules a module imports, as edges the rule counts: static imports (type-only ones too), `export … from`
 * and `import()`, resolved from the module's own folder; with `ignoreExternal`, a package's module is no
 * edge. Each edge keeps its specifier and line, for the message.
 */
function edgesOf(path, context, ignoreModule) {
  const known = graph.edges.get(path);
  if (known !== undefined) return known.edges;
  const mtime = mtimeOf(path);
  let text = '';
  if (scanned.test(path) && !path.includes('/node_modules/')) {
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      // A module that cannot be read imports nothing the rule can follow.
    }
  }
  const edges = scan(path, text, context, ignoreModule);
  graph.edges.set(path, { mtime, edges });
  return edges;
}

/** The imports of `text` (the module at `path`), resolved from its folder, one edge per module. */
function scan(path, text, context, ignoreModule) {
  const edges = [];
  const seen = new Set();
  for (const { fileName, pos } of ts.preProcessFile(text, true, false).importedFiles) {
    if (ignoreModule(fileName)) continue;
    const target = relative(fileName, path, context.settings, context);
    if (target == null || seen.has(target)) continue;
    seen.add(target);
    const line = text.slice(0, pos).split('\n').length;
    edges.push({ path: target, source: { value: fileName, line } });
  }
  return edges;
}

/**
 * The file being linted imports what its text (the editor's, maybe unsaved) says: when that differs from
 * what the graph was built with, the graph is forgotten and built again around the text.
 */
function useOwnText(filename, text, context, ignoreModule) {
  const own = scan(filename, text, context, ignoreModule);
  const known = graph.edges.get(filename);
  const same = (a, b) => a.length === b.length && a.every((edge, i) => edge.path === b[i].path);
  if (known !== undefined && same(known.edges, own)) return;
  if (known !== undefined) forget();
  graph.edges.set(filename, { mtime: mtimeOf(filename), edges: own });
}

/**
 * Tarjan's strongly connected components from `start`, over the modules not yet given a component (those
 * that were are complete: everything they reach was explored when they were). Iterative, so a deep chain of
 * imports cannot overflow the stack.
 */
function findComponents(start, context, ignoreModule) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  let counter = 0;
  const open = (path) => {
    index.set(path, counter);
    low.set(path, counter);
    counter += 1;
    stack.push(path);
    onStack.add(path);
    return { path, edges: edgesOf(path, context, ignoreModule), next: 0 };
  };
  const frames = [open(start)];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1];
    const { path } = frame;
    if (frame.next < frame.edges.length) {
      const edge = frame.edges[frame.next];
      frame.next += 1;
      if (graph.component.has(edge.path)) continue;
      if (!index.has(edge.path)) {
        frames.push(open(edge.path));
      } else if (onStack.has(edge.path)) {
        low.set(path, Math.min(low.get(path), index.get(edge.path)));
      }
      continue;
    }
    frames.pop();
    if (frames.length > 0) {
      const parent = frames[frames.length - 1].path;
      low.set(parent, Math.min(low.get(parent), low.get(path)));
    }
    if (low.get(path) === index.get(path)) {
      const id = graph.nextComponent++;
      for (;;) {
        const member = stack.pop();
        onStack.delete(member);
        graph.component.set(member, id);
        if (member === path) break;
      }
    }
  }
}

/** The imports from `from` back to `target` inside their component (breadth first): the message's route. */
function routeBack(from, target, context, ignoreModule) {
  const id = graph.component.get(target);
  const seen = new Set([from]);
  const queue = [{ path: from, route: [] }];
  while (queue.length > 0) {
    const { path, route } = queue.shift();
    for (const edge of edgesOf(path, context, ignoreModule)) {
      if (edge.path === target) return route;
      if (seen.has(edge.path) || graph.component.get(edge.path) !== id) continue;
      seen.add(edge.path);
      queue.push({ path: edge.path, route: [...route, edge.source] });
    }
  }
  return [];
}

/** @type {import('eslint').Rule.RuleModule} */
const noCycle = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Forbid a module from importing a module with a dependency path back to itself, type-only imports included.',
    },
    schema: [
      {
        type: 'object',
        properties: { ignoreExternal: { type: 'boolean' } },
        additionalProperties: false,
      },
    ],
    messages: {
      cycle: 'Dependency cycle detected (type-only imports count)',
      cycleSource: 'Dependency cycle via "{{source}}" (type-only imports count)',
    },
  },
  create(context) {
    const filename = context.physicalFilename;
    if (filename === '<text>') return {};
    forgetIfChanged();
    const options = context.options[0] ?? {};
    // A bare name resolves to the same package wherever the project imports it from; a relative one is
    // never external.
    const ignoreModule = options.ignoreExternal
      ? (name) => {
          if (name.startsWith('.')) return false;
          let external = graph.external.get(name);
          if (external === undefined) {
            external = Boolean(isExternalModule(name, resolve(name, context), context));
            graph.external.set(name, external);
          }
          return external;
        }
      : () => false;
    useOwnText(filename, context.sourceCode.text, context, ignoreModule);

    return moduleVisitor(
      (sourceNode, importer) => {
        if (ignoreModule(sourceNode.value)) return;
        const imported = resolve(sourceNode.value, context);
        if (imported == null || imported === filename) return;
        if (!graph.component.has(imported)) findComponents(imported, context, ignoreModule);
        const own = graph.component.get(filename);
        if (own === undefined || own !== graph.component.get(imported)) return;
        const route = routeBack(imported, filename, context, ignoreModule);
        if (route.length > 0) {
          const source = route.map((s) => `${s.value}:${s.line}`).join('=>');
          context.report({ node: importer, messageId: 'cycleSource', data: { source } });
        } else {
          context.report({ node: importer, messageId: 'cycle' });
        }
      },
      // Static imports, `export … from` and dynamic import(), as import-x/no-cycle sees them.
      { esmodule: true },
    );
  },
};

export const importCycles = { meta: { name: 'iskra-import-cycles' }, rules: { 'no-cycle': noCycle } };
