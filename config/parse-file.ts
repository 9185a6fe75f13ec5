/**
 * Parses one configuration file (YAML or JSON) into a `LocatedMap`. Never throws: a file that
 * cannot be used yields `error`, formatted `config: <file>:<line>:<col>: <message>`.
 * JSON is parsed with the YAML parser too (JSON is YAML 1.2) so its values keep positions,
 * after a strict `JSON.parse` check that reports JSON syntax errors in JSON terms. A key given twice
 * in a JSON object is read as JSON is (the last one wins, `JSON.parse` and Claude Code agree),
 * with a warning naming file:line and the key; in YAML it stays an error.
 */
import { extname } from 'node:path';
import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';
import { checkJsonSyntax } from './json-syntax.js';
import { MAX_NESTING_DEPTH, nestingTooDeep } from './nesting-depth.js';
import { type LocatedMap, type LocatedNode, type SourcePos, offsetToLineCol } from './located.js';

export interface ParsedConfigFile {
  readonly filepath: string;
  /** The file's top-level mapping; an empty mapping for an empty file or a failed parse. */
  readonly root: LocatedMap;
  /** Set when the file could not be used; the layer then contributes nothing. */
  readonly error?: string;
  /** Non-fatal parser remarks (e.g. an unknown tag), already formatted. */
  readonly warnings: readonly string[];
  /**
   * When the file could not be used: the line where its text names a top-level `plugins:` key.
   * A required plugin named there must not be lost quietly with the file (the kernel stops).
   */
  readonly pluginsLine?: number;
}

/** The first line whose text looks like a `plugins:` key (YAML at the start of a line, or JSON `"plugins":`). */
export function pluginsKeyLine(text: string): number | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((line) => /^\s*["']?plugins["']?\s*:/.test(line) || /["']plugins["']\s*:/.test(line));
  return at < 0 ? undefined : at + 1;
}

/** A cap on nodes created by expanding aliases (`*a`), against "billion laughs" files. */
const MAX_ALIAS_NODES = 100_000;

function emptyRoot(file: string): LocatedMap {
  return { kind: 'map', pos: { file, line: 1, col: 1 }, entries: new Map() };
}

function failedParse(filepath: string, line: number, col: number, message: string): ParsedConfigFile {
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
  const json = extname(filepath).toLowerCase() === '.json';
  const pluginsLine = pluginsKeyLine(text);
  const failed = (file: string, line: number, col: number, message: string): ParsedConfigFile => ({
    ...failedParse(file, line, col, message),
    ...(pluginsLine !== undefined ? { pluginsLine } : {}),
  });
  // Before any parser or walk recurses into it (nesting-depth.ts): refused whole, the rest loads.
  const deep = nestingTooDeep(text);
  if (deep !== undefined) return failed(filepath, deep.line, 1, `nested more than ${MAX_NESTING_DEPTH} levels deep (the limit for a settings or configuration file); the file is ignored`);
  if (json && text.trim() !== '') {
    const jsonError = checkJsonSyntax(text);
    if (jsonError) {
      const { line, col } = offsetToLineCol(text, jsonError.offset);
      return failed(filepath, line, col, jsonError.message);
    }
  }

  const lineCounter = new LineCounter();
  // yaml's own duplicate-key check compares each key with every key before it: 20,000 keys (a
  // file under the size cap) took 9 s. The Converter checks with a Map instead (`pair`): a
  // duplicate is an error in YAML, and in JSON the last one wins, with a warning (as JSON.parse).
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
    const duplicate = json ? (message: string, offset: number): void => {
      const { line, col } = posAt(offset);
      warnings.push(`config: ${filepath}:${line}:${col}: ${message}`);
    } : undefined;
    const root = new Converter(doc, posAt, duplicate).node(contents, undefined);
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
  /** Where each key of a map was first given (JSON only: for the duplicate-key warning). */
  private readonly firstKeyLines = new WeakMap<Map<string, LocatedNode>, Map<string, number>>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly posAt: (offset: number) => SourcePos,
    /** JSON: a key given twice is reported here and the last one kept (YAML refused it already). */
    private readonly duplicate?: (message: string, offset: number) => void,
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
    const earlier = entries.get(name);
    const keyOffset = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
    if (earlier !== undefined && !this.duplicate) throw new ConvertError(keyOffset, 'Map keys must be unique');
    if (earlier !== undefined && this.duplicate) {
      // The earlier value's position is its key's line (values are placed at their key when empty).
      const first = this.firstKeyLines.get(entries)?.get(name) ?? earlier.pos.line;
      this.duplicate(`${JSON.stringify(name)} is given twice in this object (first at line ${first}); the last one is used, as JSON is read`, keyOffset);
    }
    if (earlier === undefined && this.duplicate) {
      const lines = this.firstKeyLines.get(entries) ?? new Map<string, number>();
      lines.set(name, this.keyPos(pair)?.line ?? mapPos.line);
      this.firstKeyLines.set(entries, lines);
    }
    const at = this.keyPos(pair) ?? mapPos;
    keyPos?.set(name, at);
    entries.set(name, this.node(pair.value, at));
  }
}
