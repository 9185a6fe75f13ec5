/**
 * Fail-closed blacklist: `tar --remove-files`, interpreters given program text (`deno eval`,
 * `bun -e`, `pwsh -Command`, …), `parallel`'s `:::` arguments and shells fed by process
 * substitution are judged like `rm -rf` outside the project. Verdicts only: nothing is executed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkCommand } from '../../../plugins/permission-blacklist/check.js';

let base: string;
let root: string;
let home: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-removers-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(path.join(root, 'build'), { recursive: true });
  mkdirSync(home, { recursive: true });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const verdict = (command: string) => checkCommand(command, { projectRoot: root, homeDir: home });

test.each([
  'tar --remove-files -cf /tmp/x.tar ~',
  'tar --remove-fi -cf /tmp/x.tar ~/.ssh',
  'tar --rem -cf x.tar ../other',
  'tar cf x.tar --remove-files /etc/hosts',
  'tar -cvf x.tar --remove-files "$D"',
  'tar -C ~ --remove-files -cf x.tar .',
  'tar --directory .. --remove-files -cf x.tar home',
  'tar --remove-files -cf x.tar -T list',
  'gtar --remove-files -czf x.tgz ~',
  "deno eval 'Deno.removeSync(Deno.env.get(\"HOME\"), {recursive: true})'",
  "deno eval 'await Deno.remove(\"/tmp/x\", {recursive: true})'",
  "bun -e 'require(\"fs\").rmSync(process.env.HOME, {recursive: true})'",
  "bun eval 'require(\"fs\").rmSync(\"..\", {recursive: true})'",
  "pwsh -Command 'Remove-Item -Recurse ~'",
  `pwsh -EncodedCommand ${Buffer.from('Remove-Item -Recurse -Force ~', 'utf16le').toString('base64')}`,
  "osascript -e 'do shell script \"rm -rf ~\"'",
  "node -e \"require('child_process').spawnSync('rm', ['-rf', process.env.HOME])\"",
  'parallel rm -rf ::: ~',
  "parallel 'rm -rf {}' ::: ../x",
  'parallel rm -rf ::: build ~/.ssh',
  'find ~ | parallel rm -rf',
  'sh < <(echo rm -rf ~)',
  'bash <(echo rm -rf ~)',
  '. <(echo rm -rf ~)',
])('%j is denied', async (command) => {
  expect(await verdict(command)).toMatchObject({ pattern: expect.any(String) });
});

test.each([
  'tar --remove-files -cf out.tar build',
  'tar -C build --remove-files -cf ../out.tar .',
  'tar -cf /tmp/backup.tar ~/.ssh', // archiving is not removing
  'tar -xzf /tmp/x.tgz',
  'tar --record-size=512 -cf /tmp/x.tar ~',
  "deno eval 'Deno.removeSync(\"build\", {recursive: true})'",
  "deno eval 'console.log(1)'",
  "bun -e 'console.log(1)'",
  'parallel gzip ::: build/a build/b',
  'echo ls | sh',
])('%j is allowed (no verdict)', async (command) => {
  expect(await verdict(command)).toBeUndefined();
});

test('the hit names tar and the target', async () => {
  expect((await verdict('tar --remove-files -cf /tmp/x.tar ~'))!.pattern).toBe('tar --remove-files of "~", which is not a literal path inside the project');
});
