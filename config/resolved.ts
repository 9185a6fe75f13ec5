/** The `ResolvedConfig` over a merged tree: plain values for sections, positions for paths. */
import type { ConfigLayerInfo, ConfigPath, ResolvedConfig } from '../types/config.js';
import { type LocatedMap, type LocatedNode, formatPos, toPlain } from './located.js';

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
): ResolvedConfig {
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
  };
}
