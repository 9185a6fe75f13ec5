/**
 * A configuration value together with where it was written. Every value read from a config
 * file becomes a `LocatedNode`; merging keeps the nodes, so the merged tree still knows the
 * file, line and column of each value that won.
 */

/** 1-based line and column in `file` (an absolute path). */
export interface SourcePos {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

export interface LocatedMap {
  readonly kind: 'map';
  readonly pos: SourcePos;
  /** Insertion-ordered: the order of the keys in the file (lower layers first after a merge). */
  readonly entries: ReadonlyMap<string, LocatedNode>;
  /** Where each key itself is written, as parsed from one file (a merged map has none). */
  readonly keyPos?: ReadonlyMap<string, SourcePos>;
}

export interface LocatedSeq {
  readonly kind: 'seq';
  readonly pos: SourcePos;
  readonly items: readonly LocatedNode[];
}

export interface LocatedScalar {
  readonly kind: 'scalar';
  readonly pos: SourcePos;
  readonly value: unknown;
}

export type LocatedNode = LocatedMap | LocatedSeq | LocatedScalar;

export function formatPos(pos: SourcePos): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}

/** 1-based line and column of a UTF-16 offset in `text`. */
export function offsetToLineCol(text: string, offset: number): { line: number; col: number } {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: end - lineStart + 1 };
}

/** The plain JS value of a node: a fresh copy on every call, so callers may mutate it. */
export function toPlain(node: LocatedNode): unknown {
  switch (node.kind) {
    case 'scalar':
      return node.value;
    case 'seq':
      return node.items.map(toPlain);
    case 'map':
      // fromEntries defines own properties, so a key named "__proto__" stays an ordinary key.
      return Object.fromEntries([...node.entries].map(([key, value]) => [key, toPlain(value)]));
  }
}
