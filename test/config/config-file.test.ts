import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { MAX_CONFIG_FILE_BYTES, readConfigFile } from '../../config/config-file.js';
import { loadConfig } from '../../config/load.js';
import { createWorkspaceTrust } from '../../config/trust.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-config-file-')));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A YAML file of exactly `bytes` bytes: `a: 1` and a comment filling the rest. */
function yamlOf(bytes: number): string {
  const head = 'a: 1\n#';
  return head + 'x'.repeat(bytes - head.length - 1) + '\n';
}

test('a config file of exactly the cap is read; one byte more is refused, naming the file', () => {
  const exact = path.join(base, 'exact.yaml');
  const over = path.join(base, 'over.yaml');
  writeFileSync(exact, yamlOf(MAX_CONFIG_FILE_BYTES));
  writeFileSync(over, yamlOf(MAX_CONFIG_FILE_BYTES + 1));
  const read = readConfigFile(exact);
  expect(read.ok && read.text.length).toBe(MAX_CONFIG_FILE_BYTES);
  const refused = readConfigFile(over);
  expect(refused).toMatchObject({ ok: false, missing: false });
  expect(!refused.ok && refused.problem).toBe(`${over}: it is ${MAX_CONFIG_FILE_BYTES + 1} bytes, over the ${MAX_CONFIG_FILE_BYTES}-byte limit`);
  expect(readConfigFile(path.join(base, 'none.yaml'))).toMatchObject({ ok: false, missing: true });
});

test('a directory is refused with a plain reason, never a raw error code', () => {
  mkdirSync(path.join(base, 'dir.yaml'));
  const read = readConfigFile(path.join(base, 'dir.yaml'));
  expect(!read.ok && read.problem).toBe(`${path.join(base, 'dir.yaml')}: it is a directory, not a regular file`);
});

test('the user config at the cap loads; one byte over is reported and the rest loads', async () => {
  const home = path.join(base, 'home');
  const cwd = path.join(base, 'proj');
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  mkdirSync(cwd);
  const user = path.join(home, '.mewcode', 'config.yaml');
  writeFileSync(user, yamlOf(MAX_CONFIG_FILE_BYTES));
  writeFileSync(path.join(cwd, '.mewcode.yaml'), 'b: 2\n');
  const load = async () => loadConfig({ cwd, homeDir: home, trust: await createWorkspaceTrust({ projectRoot: cwd, homeDir: home, flag: true }) });
  const atCap = await load();
  expect(atCap.warnings).toEqual([]);
  writeFileSync(user, yamlOf(MAX_CONFIG_FILE_BYTES + 1));
  const over = await load();
  expect(over.warnings.join('\n')).toContain(`${user}): it is ${MAX_CONFIG_FILE_BYTES + 1} bytes, over the ${MAX_CONFIG_FILE_BYTES}-byte limit`);
  expect(over.section('b')).toBe(2);
});
