/**
 * Editing `permissions.allow` of the local settings file (A9): the file is re-read from
 * disk, edited through yaml's Document API so every other key and every comment stays, and
 * replaced atomically (temp file + rename). Writes to one file are serialised in this process.
 * A file that does not parse is never rewritten: the caller reports the error.
 */
import { MAX_NESTING_DEPTH, nestingTooDeep } from '../../config/nesting-depth.js';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readConfigFile } from '../../config/config-file.js';

const queues = new Map<string, Promise<unknown>>();

function serialised<T>(file: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(file, settled);
  void settled.then(() => {
    if (queues.get(file) === settled) queues.delete(file);
  });
  return next;
}

type YamlModule = typeof import('yaml');

/**
 * yaml is a CommonJS package: in the bundle, `import('yaml')` resolves to a namespace that holds
 * it under `default` only (from source, Node's loader also copies the named exports), so
 * `parseDocument` was undefined and "allow always" was never saved by the built CLI.
 */
async function loadYaml(): Promise<YamlModule> {
  const imported = (await import('yaml')) as YamlModule & { default?: YamlModule };
  return imported.default ?? imported;
}
type YamlDocument = ReturnType<YamlModule['parseDocument']>;

async function load(file: string): Promise<{ yaml: YamlModule; doc: YamlDocument; existed: boolean }> {
  const yaml = await loadYaml();
  let text = '';
  let existed = true;
  const read = readConfigFile(file);
  if (read.ok) text = read.text;
  else if (read.missing) existed = false;
  else throw new Error(`${read.problem}; fix it, then approve again`);
  const deep = nestingTooDeep(text);
  if (deep !== undefined) throw new Error(`${file}:${deep.line} nests more than ${MAX_NESTING_DEPTH} levels deep; fix it, then approve again`);
  const doc = yaml.parseDocument(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const first = doc.errors[0];
  if (first) throw new Error(`${file} does not parse (${first.message.split('\n')[0]}); fix it, then approve again`);
  return { yaml, doc, existed };
}

async function save(file: string, doc: YamlDocument): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  let mode: number | undefined;
  try {
    mode = (await stat(file)).mode & 0o777;
  } catch {
    mode = undefined;
  }
  try {
    await writeFile(temp, doc.toString({ lineWidth: 0, flowCollectionPadding: false }), mode === undefined ? 'utf8' : { encoding: 'utf8', mode });
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** The `permissions.allow` sequence, created if missing (never replacing a key of another type). */
function allowSeq(yaml: YamlModule, doc: YamlDocument, file: string, create: boolean) {
  const { isMap, isScalar, isSeq } = yaml;
  const emptyScalar = (node: unknown): boolean => node === null || node === undefined || (isScalar(node) && node.value === null);
  if (emptyScalar(doc.contents)) {
    if (!create) return undefined;
    doc.contents = doc.createNode({}) as typeof doc.contents;
  }
  if (!isMap(doc.contents)) throw new Error(`${file}: the top level is not a mapping; add the rule by hand`);
  let permissions = doc.contents.get('permissions', true);
  if (emptyScalar(permissions)) {
    if (!create) return undefined;
    doc.contents.set('permissions', doc.createNode({ allow: [] }));
    permissions = doc.contents.get('permissions', true);
  }
  if (!isMap(permissions)) throw new Error(`${file}: permissions is not a mapping; add the rule by hand`);
  let allow = permissions.get('allow', true);
  if (emptyScalar(allow)) {
    if (!create) return undefined;
    permissions.set('allow', doc.createNode([]));
    allow = permissions.get('allow', true);
  }
  if (!isSeq(allow)) throw new Error(`${file}: permissions.allow is not a list; add the rule by hand`);
  return allow;
}

function itemText(yaml: YamlModule, item: unknown): string | undefined {
  return yaml.isScalar(item) && typeof item.value === 'string' ? item.value.trim() : undefined;
}

/** Append `rule` to permissions.allow unless it is already there. */
export function appendAllowRule(file: string, rule: string): Promise<'added' | 'present'> {
  return serialised(file, async () => {
    const { yaml, doc } = await load(file);
    const allow = allowSeq(yaml, doc, file, true)!;
    if (allow.items.some((item) => itemText(yaml, item) === rule.trim())) return 'present';
    allow.add(doc.createNode(rule.trim()));
    await save(file, doc);
    return 'added';
  });
}

/** Remove every copy of `rule` from permissions.allow; returns how many were removed. */
export function removeAllowRule(file: string, rule: string): Promise<number> {
  return serialised(file, async () => {
    const { yaml, doc, existed } = await load(file);
    if (!existed) return 0;
    const allow = allowSeq(yaml, doc, file, false);
    if (!allow) return 0;
    const before = allow.items.length;
    allow.items = allow.items.filter((item) => itemText(yaml, item) !== rule.trim());
    const removed = before - allow.items.length;
    if (removed > 0) await save(file, doc);
    return removed;
  });
}
