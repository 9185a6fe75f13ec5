/**
 * Configuration merge rules (described in docs/kernel.md, "Configuration")
 * --------------------------------------------------------
 * Layers, lowest to highest precedence: user (~/.mewcode/config.*), project (.mewcode.* or
 * .mewcode/config.* in the working directory), local (.mewcode/config.local.*: it keeps its
 * place here, but counts as project scope for workspace trust, see load.ts). Each top-level section is merged on its own:
 *
 * - Default, every section not listed below: mappings deep-merge, the higher layer winning
 *   per key (recursively); scalars and arrays are replaced whole by the higher layer. A value
 *   of a different kind (e.g. a list over a mapping, or an explicit `null`) also replaces the
 *   lower value whole.
 * - `providers` (a list of `{name, ...}` entries): merged by `name`. An entry of a higher layer
 *   deep-merges (rules above) into the same-named entry of a lower layer, which keeps its place
 *   in the list (so a local file can add `api_key` to a provider the project declares); new
 *   names are appended in layer order; entries without a string `name` are appended as they
 *   are. Two entries with the same name in one file are merged too, with a warning.
 * - `plugins` and `disable` (lists of strings): the union in layer order, duplicates dropped
 *   (the first occurrence keeps its place).
 * - `mcp_servers` (a mapping of server name to server): per server name, the higher layer's
 *   server replaces the lower one whole, it is not deep-merged (M2); other names are kept.
 * - If either side of `providers`, `plugins`, `disable` or `mcp_servers` is not of the
 *   expected kind (list or mapping), the higher layer's value replaces the lower one whole, and
 *   the section's validation reports it.
 *
 * Every merged value keeps the file, line and column it was written at, so `locate(path)`
 * names the file that won: for a deep-merged mapping, the highest layer that wrote it; for a
 * `providers` entry merged from several layers, the highest layer's entry; for a value kept
 * by a union, its first occurrence.
 */
import {
  type LocatedMap,
  type LocatedNode,
  type LocatedSeq,
  type SourcePos,
  formatPos,
} from './located.js';

type SectionMerger = (lower: LocatedNode | undefined, higher: LocatedNode, warnings: string[]) => LocatedNode;

const SECTION_MERGERS: Readonly<Record<string, SectionMerger>> = {
  providers: (lower, higher, warnings) =>
    higher.kind === 'seq' && (lower === undefined || lower.kind === 'seq')
      ? mergeByName(lower, higher, 'providers', warnings)
      : higher,
  plugins: (lower, higher) => unionOrReplace(lower, higher),
  disable: (lower, higher) => unionOrReplace(lower, higher),
  mcp_servers: (lower, higher) =>
    lower?.kind === 'map' && higher.kind === 'map' ? replacePerKey(lower, higher) : higher,
};

/** Merges the layers' top-level mappings, lowest precedence first. */
export function mergeLayers(roots: readonly LocatedMap[], warnings: string[]): LocatedMap {
  const entries = new Map<string, LocatedNode>();
  let pos: SourcePos = { file: '', line: 1, col: 1 };
  for (const root of roots) {
    pos = root.pos;
    for (const [key, higher] of root.entries) {
      const lower = entries.get(key);
      const merger = Object.hasOwn(SECTION_MERGERS, key) ? SECTION_MERGERS[key] : undefined;
      entries.set(key, merger ? merger(lower, higher, warnings) : lower ? deepMerge(lower, higher) : higher);
    }
  }
  return { kind: 'map', pos, entries };
}

/** Mappings merge per key, recursively; anything else is replaced whole by `higher`. */
export function deepMerge(lower: LocatedNode, higher: LocatedNode): LocatedNode {
  if (lower.kind !== 'map' || higher.kind !== 'map') return higher;
  const entries = new Map(lower.entries);
  for (const [key, value] of higher.entries) {
    const below = entries.get(key);
    entries.set(key, below ? deepMerge(below, value) : value);
  }
  return { kind: 'map', pos: higher.pos, entries };
}

function replacePerKey(lower: LocatedMap, higher: LocatedMap): LocatedMap {
  const entries = new Map(lower.entries);
  for (const [key, value] of higher.entries) entries.set(key, value);
  return { kind: 'map', pos: higher.pos, entries };
}

function unionOrReplace(lower: LocatedNode | undefined, higher: LocatedNode): LocatedNode {
  if (higher.kind !== 'seq' || (lower !== undefined && lower.kind !== 'seq')) return higher;
  const items: LocatedNode[] = [];
  const seen = new Set<string>();
  for (const item of [...(lower?.items ?? []), ...higher.items]) {
    if (item.kind === 'scalar') {
      const id = `${typeof item.value}:${String(item.value)}`;
      if (seen.has(id)) continue;
      seen.add(id);
    }
    items.push(item);
  }
  return { kind: 'seq', pos: higher.pos, items };
}

function entryName(item: LocatedNode): string | undefined {
  if (item.kind !== 'map') return undefined;
  const name = item.entries.get('name');
  return name?.kind === 'scalar' && typeof name.value === 'string' ? name.value : undefined;
}

function mergeByName(
  lower: LocatedSeq | undefined,
  higher: LocatedSeq,
  section: string,
  warnings: string[],
): LocatedSeq {
  const items = [...(lower?.items ?? [])];
  const index = new Map<string, number>();
  items.forEach((item, i) => {
    const name = entryName(item);
    if (name !== undefined && !index.has(name)) index.set(name, i);
  });
  const seenInHigher = new Set<string>();
  higher.items.forEach((item, i) => {
    const name = entryName(item);
    if (name === undefined) {
      items.push(item);
      return;
    }
    if (seenInHigher.has(name)) {
      warnings.push(
        `config: ${formatPos(item.pos)}: ${section}[${i}]: "${name}" is declared twice in this file; the entries are merged`,
      );
    }
    seenInHigher.add(name);
    const at = index.get(name);
    if (at === undefined) {
      index.set(name, items.length);
      items.push(item);
    } else {
      const existing = items[at];
      items[at] = existing ? deepMerge(existing, item) : item;
    }
  });
  return { kind: 'seq', pos: higher.pos, items };
}
