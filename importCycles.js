/**
 * `import-x/no-cycle`, but type-only imports count. import-x 4.x skips them with no option to do otherwise
 * (node_modules/eslint-plugin-import-x/lib/rules/no-cycle.js drops an `import type` edge both where the
 * linted file imports and while it walks the graph; its only knobs are maxDepth, ignoreExternal and
 * allowUnsafeDynamicCyclicDependency). A circle of types is still two modules that cannot be read, moved
 * or split apart, so this copy walks every static edge. Same graph (import-x's ModuleInfo, same resolver
 * settings), same messages.
 */
import { ModuleInfo } from 'eslint-plugin-import-x/core/module-info';
import { isExternalModule, moduleVisitor, resolve } from 'eslint-plugin-import-x/utils';

/** Files already walked from the file being linted: a file reached twice adds no new path back. */
const traversed = new Set();

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
    const options = context.options[0] ?? {};
    const ignoreModule = options.ignoreExternal
      ? (name) => isExternalModule(name, resolve(name, context), context)
      : () => false;

    return {
      ...moduleVisitor(
        (sourceNode, importer) => {
          if (ignoreModule(sourceNode.value)) return;
          const imported = ModuleInfo.get(sourceNode.value, context);
          if (imported == null || imported.path === filename || traversed.has(imported.path)) return;
          traversed.add(imported.path);
          const untraversed = [{ mget: () => imported, path: imported.path, route: [] }];
          const detectCycle = ({ mget, route }) => {
            const m = mget();
            if (m == null) return false;
            for (const [path, { resolve: next, declarations }] of m.getImports()) {
              if (traversed.has(path)) continue;
              const edges = [...declarations].filter(({ source }) => !ignoreModule(source.value));
              if (edges.length === 0) continue;
              if (path === filename) return true;
              traversed.add(path);
              untraversed.push({ mget: next, path, route: [...route, edges[0].source] });
            }
            return false;
          };
          while (untraversed.length > 0) {
            const next = untraversed.shift();
            if (detectCycle(next)) {
              for (const { path } of untraversed) traversed.delete(path);
              if (next.route.length > 0) {
                const source = next.route.map((s) => `${s.value}:${s.loc.start.line}`).join('=>');
                context.report({ node: importer, messageId: 'cycleSource', data: { source } });
              } else {
                context.report({ node: importer, messageId: 'cycle' });
              }
              return;
            }
          }
        },
        // Static imports, `export … from` and dynamic import(), as import-x/no-cycle sees them.
        { esmodule: true },
      ),
      'Program:exit'() {
        traversed.clear();
      },
    };
  },
};

export const importCycles = { meta: { name: 'iskra-import-cycles' }, rules: { 'no-cycle': noCycle } };
