/** The `ResolvedConfig` over a merged tree: plain values for sections, positions for paths. */
import type { ConfigLayerInfo, ConfigLayerName, ConfigPath, FileSection, PartialSection, ResolvedConfig } from '../types/config.js';
import { type LocatedMap, type LocatedNode, formatPos, toPlain } from './located.js';
import { mergeLayers } from './merge.js';

/** One loaded file's tree (after workspace trust), kept so a section can be read from some files only. */
export interface LayerRoot {
  layer: ConfigLayerName;
  file: string;
  root: LocatedMap;
}

function child(node: LocatedNode, segment: string | number): LocatedNode | undefined {
  if (node.kind === 'map') return node.entries.get(String(segment));
  if (node.kind === 'seq') {
    const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
    return Number.isInteger(index) && index >= 0 ? node.items[index] : undefined;
  }
  return undefined;
}

/**
 * The node at `path`, or its nearest existing ancestor. The root itself is never returned (it
 * spans several files): a path whose top-level section is absent finds nothing.
 */
export function findNode(root: LocatedMap, path: ConfigPath): LocatedNode | undefined {
  const [first, ...rest] = path;
  if (first === undefined) return undefined;
  let node = root.entries.get(String(first));
  if (!node) return undefined;
  for (const segment of rest) {
    const next = child(node, segment);
    if (!next) break;
    node = next;
  }
  return node;
}

export function createResolvedConfig(
  root: LocatedMap,
  layers: readonly ConfigLayerInfo[],
  warnings: readonly string[],
  fileKeys: readonly { key: string; at: string }[] = [],
  layerRoots: readonly LayerRoot[] = [],
): ResolvedConfig {
  const setting = (key: string) => layerRoots.filter(({ root: tree }) => tree.entries.has(key));
  const fileSection = ({ layer, file, root: tree }: LayerRoot, key: string): FileSection => {
    const node = tree.entries.get(key);
    const pos = tree.keyPos?.get(key) ?? node?.pos;
    return { layer, file, at: pos ? formatPos(pos) : file, value: node ? toPlain(node) : undefined };
  };
  return {
    layers: Object.freeze([...layers]),
    warnings: Object.freeze([...warnings]),
    fileKeys: Object.freeze([...fileKeys]),
    section(key: string): unknown {
      const node = root.entries.get(key);
      return node ? toPlain(node) : undefined;
    },
    locate(path: ConfigPath): string | undefined {
      const node = findNode(root, path);
      return node ? formatPos(node.pos) : undefined;
    },
    sectionFiles(key: string): readonly FileSection[] {
      return setting(key).map((entry) => fileSection(entry, key));
    },
    sectionFrom(key: string, keep: (file: FileSection) => boolean): PartialSection {
      const only = setting(key).filter((entry) => keep(fileSection(entry, key)));
      // Only this key of each file: the merge rules are per section, so the result is the same.
      const merged = mergeLayers(
        only.map(({ root: tree }) => ({ kind: 'map', pos: tree.pos, entries: new Map([[key, tree.entries.get(key)!]]) })),
        [],
      );
      const node = merged.entries.get(key);
      return {
        value: node ? toPlain(node) : undefined,
        locate: (path: ConfigPath) => {
          const found = path[0] === key ? findNode(merged, path) : undefined;
          return found ? formatPos(found.pos) : undefined;
        },
      };
    },
  };
}
