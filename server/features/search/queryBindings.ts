type Value = string | number;

/**
 * One thing a query binds: a value (one parameter), a list (one parameter per item: its length is part
 * of the query's shape), a switch (part of the shape, never bound) or undefined (the term is left out).
 */
export type Bound = Value | readonly Value[] | boolean | undefined;
/**
 * The values one part of a query binds, by name. A part declares its binding's type as a type alias
 * (`type X = {...}`), not an interface: only an alias gets the implicit index signature this asks for.
 */
export type Binding = Readonly<Record<string, Bound>>;

/** A binding's shape: per name, a list's length, a switch's value, or 'v' for a value; left-out names absent. */
type Layout = Record<string, number | boolean | 'v'>;

/**
 * The shape and values of a query made of parts (the query's own, then one per rule), for db/prepared.ts
 * `preparedByShape`. The key is every part's layout, as JSON, so it always determines the query's text:
 * a part cannot add a term or a list item without changing it. The values are named by their index, in
 * the order `standInsOf` names its slots. Written out by hand, since this runs for every query: a search
 * with a position binds a few dozen values (named slots and JSON.stringify took 10 µs, this 2 to 5).
 */
export function bindParts(parts: readonly Binding[]): { key: string; values: Record<string, unknown> } {
  let key = '[';
  // Integer keys: V8 keeps them in a fast array-like store, where dozens of built string keys were slow.
  const values: Record<number, unknown> = {};
  let count = 0;
  for (const binding of parts) {
    let layout = '';
    for (const name in binding) {
      const bound = binding[name];
      if (bound === undefined) continue;
      if (layout) layout += ',';
      if (typeof bound === 'boolean') layout += `"${name}":${bound}`;
      else if (typeof bound === 'object') {
        layout += `"${name}":${bound.length}`;
        for (const item of bound) values[count++] = item;
      } else {
        layout += `"${name}":"v"`;
        values[count++] = bound;
      }
    }
    key += key.length > 1 ? `,{${layout}}` : `{${layout}}`;
  }
  return { key: `${key}]`, values };
}

/**
 * The parts' bindings as the query is built from a key of `bindParts`: stand-ins (`slot`) in place of
 * the values and list items, the switches as they are; so each has the names, lengths and switches of
 * the binding it was made from. The stand-ins may only be used as values (an operand), never inspected;
 * lengths and switches may decide the text, since they are in the key.
 */
export function standInsOf(key: string, slot: (name: string) => never): Binding[] {
  let index = 0;
  const next = () => slot(String(index++));
  return (JSON.parse(key) as Layout[]).map((layout) => {
    const binding: Record<string, Bound> = {};
    for (const [name, kind] of Object.entries(layout)) {
      if (typeof kind === 'boolean') binding[name] = kind;
      else if (kind === 'v') binding[name] = next();
      else binding[name] = Array.from({ length: kind }, next);
    }
    return binding;
  });
}
