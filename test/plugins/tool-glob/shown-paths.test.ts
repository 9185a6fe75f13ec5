/**
 * A name as glob and grep show it (`\xNN` for a byte that is not UTF-8, `\\` for a backslash:
 * sdk/search-common/display-name.ts) given back as a path: read_file, edit_file, write_file, grep
 * and glob find the file, through a real kernel (the input check decodes it before the hooks and
 * the permission layers see the call, so a deny rule on the decoded name still denies). A real
 * file whose name is the escape text itself wins when it exists.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import outputLimits from '../../../plugins/output-limits/index.js';
import globPlugin from '../../../plugins/tool-glob/index.js';
import grepPlugin from '../../../plugins/tool-grep/index.js';
import readFilePlugin from '../../../plugins/tool-read-file/index.js';
import editFilePlugin from '../../../plugins/tool-edit-file/index.js';
import writeFilePlugin from '../../../plugins/tool-write-file/index.js';
import { nameOfShownPath, displayName, fsPath, pathFromBytes } from '../../../sdk/search-common/display-name.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { tempDirs, trustPlugin, writeSettings, type Dirs } from '../permission-rules/helpers.js';

const LATIN1 = Buffer.concat([Buffer.from('lib/caf'), Buffer.from([0xe9]), Buffer.from('-latin1.txt')]);
const SECRET = Buffer.concat([Buffer.from('secret'), Buffer.from([0xff]), Buffer.from('.txt')]);
const ODD_DIR = Buffer.concat([Buffer.from('d'), Buffer.from([0xfe])]);

let dirs: Dirs;
const bytesAt = (rel: Buffer): Buffer => Buffer.concat([Buffer.from(`${dirs.root}/`), rel]);
beforeEach(() => {
  dirs = tempDirs();
  mkdirSync(path.join(dirs.root, 'lib'));
  writeFileSync(bytesAt(LATIN1), 'needle latin\n');
  writeFileSync(bytesAt(SECRET), 'top secret needle\n');
  mkdirSync(bytesAt(ODD_DIR));
  writeFileSync(bytesAt(Buffer.concat([ODD_DIR, Buffer.from('/in.txt')])), 'inside\n');
  writeFileSync(path.join(dirs.root, 'a\\b.txt'), 'backslash file\n');
  writeFileSync(path.join(dirs.root, 'x\\x41.txt'), 'literal escape text\n');
  writeFileSync(path.join(dirs.root, 'xA.txt'), 'decoded A\n');
  writeSettings(dirs, 'user', { deny: ['Read(secret?.txt)'] });
});
afterEach(() => dirs.cleanup());

function results(model: { requests: { messages: readonly unknown[] }[] }, request: number): { content: string; isError: boolean }[] {
  return (model.requests[request]!.messages.at(-1) as { results: { content: string; isError: boolean }[] }).results;
}

test('the format: decoded back to the bytes shown, a real name of escaped text kept apart', () => {
  for (const bytes of [LATIN1, SECRET, Buffer.from('a\\b'), Buffer.from('new\nline'), Buffer.from([0xc3, 0x28, 0x5c, 0x78, 0x34, 0x31])]) {
    const shown = displayName(bytes.toString('utf8'), bytes);
    const asBytes = (p: string): Buffer => Buffer.from(fsPath(p));
    expect(asBytes(nameOfShownPath(shown) ?? shown)).toEqual(bytes);
    expect(asBytes(pathFromBytes(bytes))).toEqual(bytes);
  }
  expect(nameOfShownPath('plain.txt')).toBeUndefined();
  expect(nameOfShownPath('x\\\\x41.txt')).toBe('x\\x41.txt'); // the shown form of a real `x\x41.txt`
  expect(nameOfShownPath('x\\x41.txt')).toBe('xA.txt');
});

test('a shown name works as a path for glob, grep, read_file, edit_file and write_file; a deny rule on the decoded name denies', async () => {
  const steps = [
    useTools([call('glob', { pattern: '**/*.txt' })]),
    useTools([call('read_file', { file_path: 'lib/caf\\xe9-latin1.txt' })]),
    useTools([call('edit_file', { file_path: 'lib/caf\\xe9-latin1.txt', old_string: 'latin', new_string: 'edited' })]),
    useTools([call('grep', { pattern: 'needle', path: 'lib/caf\\xe9-latin1.txt' })]),
    useTools([call('glob', { pattern: '*.txt', path: 'd\\xfe' })]),
    useTools([call('read_file', { file_path: 'a\\\\b.txt' })]),
    useTools([call('read_file', { file_path: 'x\\x41.txt' }), call('read_file', { file_path: 'x\\\\x41.txt' })]),
    useTools([call('write_file', { file_path: 'lib/caf\\xe9-latin1.txt', content: 'rewritten\n' })]),
    useTools([call('read_file', { file_path: 'secret\\xff.txt' }), call('grep', { pattern: 'needle', path: 'secret\\xff.txt' })]),
    say('done'),
  ];
  const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
  const plugins = [outputLimits, globPlugin, grepPlugin, readFilePlugin, editFilePlugin, writeFilePlugin, createPermissionRulesPlugin(), trustPlugin(trust)];
  const { kernel, model: requests } = await bootKernel(steps, plugins, { projectRoot: dirs.root, homeDir: dirs.home });
  const events = await runPrompt(kernel, 'go', 'acceptEdits');
  expect(doneEvent(events).reason).toBe('completed');
  const listed = results(requests, 1)[0]!.content.split('\n').sort();
  expect(listed).toEqual(expect.arrayContaining(['lib/caf\\xe9-latin1.txt', 'a\\\\b.txt', 'x\\\\x41.txt', 'xA.txt', 'd\\xfe/in.txt']));
  expect(results(requests, 2)[0]).toMatchObject({ isError: false, content: '     1\tneedle latin' });
  expect(results(requests, 3)[0]).toMatchObject({ isError: false, content: expect.stringMatching(/^Edited lib\/caf.*-latin1\.txt: replaced 1 occurrence/) });
  expect(results(requests, 4)[0]).toMatchObject({ isError: false, content: 'lib/caf\\xe9-latin1.txt:1: needle edited' });
  expect(results(requests, 5)[0]).toMatchObject({ isError: false, content: 'd\\xfe/in.txt' });
  expect(results(requests, 6)[0]).toMatchObject({ isError: false, content: '     1\tbackslash file' });
  // `x\x41.txt` exists as written: it wins over `xA.txt`; its shown form `x\\x41.txt` names it too.
  expect(results(requests, 7).map((r) => r.content)).toEqual(['     1\tliteral escape text', '     1\tliteral escape text']);
  expect(results(requests, 8)[0]).toMatchObject({ isError: false });
  expect(readFileSync(bytesAt(LATIN1), 'utf8')).toBe('rewritten\n');
  const denied = results(requests, 9);
  expect(denied.map((r) => r.isError)).toEqual([true, true]);
  expect(denied.map((r) => r.content).join('\n')).not.toMatch(/top secret/);
  expect(denied[0]!.content).toMatch(/denied|deny/i);
});
