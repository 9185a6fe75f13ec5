/**
 * Parses one configuration file (YAML or JSON) into a `LocatedMap`. Never throws: a file that
 * cannot be used yields `error`, formatted `config: <file>:<line>:<col>: <message>`.
 * JSON is parsed with the YAML parser too (JSON is YAML 1.2) so its values keep positions,
 * after a strict `JSON.parse` check that reports JSON syntax errors in JSON terms.
 */
import { extname } from 'node:path';
import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';
import { checkJsonSyntax } from './json-syntax.js';
import { type LocatedMap, type LocatedNode, type SourcePos, offsetToLineCol } from './located.js';

export interface ParsedConfigFile {
  readonly filepath: string;
  /** The file's top-level mapping; an empty mapping for an empty file or a failed parse. */
  readonly root: LocatedMap;
  /** Set when the file could not be used; the layer then contributes nothing. */
  readonly error?: string;
  /** Non-fatal parser remarks (e.g. an unknown tag), already formatted. */
  readonly warnings: readonly string[];
}

/** A cap on nodes created by expanding aliases (`*a`), against "billion laughs" files. */
const MAX_ALIAS_NODES = 100_000;

export function emptyConfigFile(filepath: string): ParsedConfigFile {
  return { filepath, root: emptyRoot(filepath), warnings: [] };
}

function emptyRoot(file: string): LocatedMap {
  return { kind: 'map', pos: { file, line: 1, col: 1 }, entries: new Map() };
}

function failed(filepath: string, line: number, col: number, message: string): ParsedConfigFile {
  return {
    filepath,
    root: emptyRoot(filepath),
    error: `config: ${filepath}:${line}:${col}: ${message}`,
    warnings: [],
  };
}

class ConvertError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseConfigText(filepath: string, content: string): ParsedConfigFile {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (extname(filepath).toLowerCase() === '.json' && text.trim() !== '') {
    const jsonError = checkJsonSyntax(text);
    if (jsonError) {
      const { line, col } = offsetToLineCol(text, jsonError.offset);
      return failed(filepath, line, col, jsonError.message);
    }
  }

  const lineCounter = new LineCounter();
  // yaml's own duplicate-key check compares each key with every key before it: 20,000 keys (a
  // file under the size cap) took 9 s. The Converter checks with a Map instead (`pair`).
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const posAt = (offset: number): SourcePos => {
    const { line, col } = lineCounter.linePos(offset);
    return { file: filepath, line, col };
  };

  const firstError = doc.errors[0];
  if (firstError) {
    const { line, col } = posAt(firstError.pos[0]);
    return failed(filepath, line, col, firstError.message);
  }
  const warnings = doc.warnings.map((warning) => {
    const { line, col } = posAt(warning.pos[0]);
    return `config: ${filepath}:${line}:${col}: ${warning.message}`;
  });

  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null && contents.source === '')) {
    return { filepath, root: emptyRoot(filepath), warnings }; // only comments, or `---`
  }
  if (!isMap(contents)) {
    const { line, col } = posAt(contents.range?.[0] ?? 0);
    const found = isSeq(contents) ? 'a list' : isAlias(contents) ? 'an alias' : 'a single value';
    return failed(
      filepath,
      line,
      col,
      `the top level must be a mapping of section names to values, found ${found}`,
    );
  }

  try {
    const root = new Converter(doc, posAt).node(contents, undefined);
    if (root.kind !== 'map') throw new ConvertError(0, 'the top level must be a mapping');
    return { filepath, root, warnings };
  } catch (error) {
    if (!(error instanceof ConvertError)) throw error;
    const { line, col } = posAt(error.offset);
    return failed(filepath, line, col, error.message);
  }
}

/** Turns yaml's nodes into LocatedNodes, resolving aliases (with cycle and size guards). */
class Converter {
  private aliasNodes = 0;
  private aliasDepth = 0;
  private readonly active = new Set<YamlNode>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly posAt: (offset: number) => SourcePos,
  ) {}

  node(node: unknown, fallback: SourcePos | undefined): LocatedNode {
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      const offset = node.range?.[0] ?? 0;
      const here = this.posAt(offset);
      if (target === undefined) throw new ConvertError(offset, `unknown alias *${node.source}`);
      // The value itself is reported where the alias is used; its contents where they are written.
      this.aliasDepth++;
      try {
        return { ...this.node(target, here), pos: here };
      } finally {
        this.aliasDepth--;
      }
    }
    if (this.aliasDepth > 0 && ++this.aliasNodes > MAX_ALIAS_NODES) {
      throw new ConvertError(0, `too many alias expansions (more than ${MAX_ALIAS_NODES})`);
    }
    if (isScalar(node)) {
      // `key:` with nothing after it: point at the key rather than past the colon.
      const empty = node.value === null && node.source === '';
      const pos = !empty && node.range ? this.posAt(node.range[0]) : (fallback ?? this.posAt(0));
      return { kind: 'scalar', pos, value: node.value };
    }
    if (isMap(node) || isSeq(node)) {
      if (this.active.has(node)) {
        throw new ConvertError(node.range?.[0] ?? 0, 'an alias refers to a collection that contains it');
      }
      this.active.add(node);
      try {
        const pos = node.range ? this.posAt(node.range[0]) : (fallback ?? this.posAt(0));
        if (isMap(node)) {
          const entries = new Map<string, LocatedNode>();
          const keyPos = new Map<string, SourcePos>();
          for (const pair of node.items) this.pair(pair, entries, pos, keyPos);
          return { kind: 'map', pos, entries, keyPos };
        }
        const items = node.items.map((item) => {
          if (isPair(item)) {
            // `[a: 1]`: a single-pair mapping inside a flow sequence
            const entries = new Map<string, LocatedNode>();
            this.pair(item, entries, pos);
            return { kind: 'map', pos: this.keyPos(item) ?? pos, entries } satisfies LocatedMap;
          }
          return this.node(item, pos);
        });
        return { kind: 'seq', pos, items };
      } finally {
        this.active.delete(node);
      }
    }
    // A missing value (e.g. `- ` in a block sequence): an explicit null at the fallback.
    return { kind: 'scalar', pos: fallback ?? this.posAt(0), value: null };
  }

  private keyPos(pair: Pair<unknown, unknown>): SourcePos | undefined {
    const key = pair.key as { range?: [number, number, number] } | null;
    return key?.range ? this.posAt(key.range[0]) : undefined;
  }

  private pair(pair: Pair<unknown, unknown>, entries: Map<string, LocatedNode>, mapPos: SourcePos, keyPos?: Map<string, SourcePos>): void {
    const key = isAlias(pair.key) ? pair.key.resolve(this.doc) : pair.key;
    const name = isScalar(key) ? String(key.value) : key === null || key === undefined ? '' : String(key);
    if (entries.has(name)) throw new ConvertError((pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0, 'Map keys must be unique');
    const at = this.keyPos(pair) ?? mapPos;
    keyPos?.set(name, at);
    entries.set(name, this.node(pair.value, at));
  }
}
