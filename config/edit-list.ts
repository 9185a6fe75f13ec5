/**
 * Adds an entry to, or removes one from, a top-level list of a configuration file (`plugins:`),
 * keeping everything else in the file as written: YAML through the `yaml` library's document
 * model (comments, order and quoting stay), JSON rewritten as JSON. A file that does not parse is
 * never rewritten: the error names it.
 */
import { MAX_NESTING_DEPTH, nestingTooDeep } from './nesting-depth.js';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Document, isMap, isSeq, parseDocument } from 'yaml';
import { readConfigFile } from './config-file.js';

/** A list entry's name: the entry itself, or the `use:` of an object entry (`{ use: x, required: true }`). */
export function entryName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry === 'object' && typeof (entry as { use?: unknown }).use === 'string') return (entry as { use: string }).use;
  return undefined;
}

/** The names listed under `key` in `file` (none when the file or the key is absent). */
export async function readListNames(file: string, key: string): Promise<string[]> {
  if (!existsSync(file)) return [];
  const value = (await load(file)).get(key);
  return isSeq(value) ? (value.toJSON() as unknown[]).map(entryName).filter((n): n is string => n !== undefined) : [];
}

/** Adds `name` under `key`; false when an entry of that name is already there. Creates the file. */
export async function addListEntry(file: string, key: string, name: string): Promise<boolean> {
  const doc = existsSync(file) ? await load(file) : new Document({});
  if (doc.contents !== null && !isMap(doc.contents)) throw new Error(`${file}: the configuration is not a mapping of keys`);
  const list = doc.get(key);
  if (list !== undefined && list !== null && !isSeq(list)) throw new Error(`${file}: ${key} is not a list`);
  if (isSeq(list) && (list.toJSON() as unknown[]).some((entry) => entryName(entry) === name)) return false;
  if (isSeq(list)) list.add(name);
  else doc.set(key, doc.createNode([name]));
  await save(file, doc);
  return true;
}

/** Removes every entry named `name` under `key`; false when there was none. */
export async function removeListEntry(file: string, key: string, name: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  const doc = await load(file);
  const list = doc.get(key);
  if (!isSeq(list)) return false;
  const before = list.items.length;
  list.items = list.items.filter((item) => entryName((item as { toJSON?: () => unknown }).toJSON?.() ?? item) !== name);
  if (list.items.length === before) return false;
  await save(file, doc);
  return true;
}

async function load(file: string): Promise<Document> {
  const read = readConfigFile(file);
  if (!read.ok) throw new Error(`${read.problem} (the file was left as it is)`);
  const deep = nestingTooDeep(read.text);
  if (deep !== undefined) throw new Error(`${file}:${deep.line}: nested more than ${MAX_NESTING_DEPTH} levels deep (the file was left as it is)`);
  const doc = parseDocument(read.text);
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message.split('\n')[0]} (the file was left as it is)`);
  return doc;
}

async function save(file: string, doc: Document): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const text = file.endsWith('.json') ? `${JSON.stringify(doc.toJSON(), null, 2)}\n` : doc.toString();
  await writeFile(file, text);
}
