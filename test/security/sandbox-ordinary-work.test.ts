/**
 * The other side of the sandbox's refusals (no keyring, no new unix socket, the credential list
 * unreadable): ordinary work in a normal repository still runs in the default setup, through the
 * built CLI, without a prompt. git, an `npm test` whose tests fork node children (an IPC channel
 * is a socketpair, which stays allowed) and use worker threads, a Python test suite with
 * subprocesses and a multiprocessing pool, and user lookups (glibc tries nscd's socket first).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { skipWithoutSandbox } from '../plugins/sandbox-os/fixture.js';
import { prepareCli } from '../cli/helpers.js';
import { securityTally } from './attempts.js';
import { cliSandboxDirs, resultOf, runBashCalls, sandboxStatus, type BashRun, type CliSandboxDirs } from './cli-sandbox-harness.js';

const tally = securityTally('sandbox-ordinary-work');
afterAll(() => tally.save());

const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const GIT = 'git -c user.email=dev@example.com -c user.name=dev';

const NODE_TEST = `const { fork } = require('node:child_process');
const { Worker } = require('node:worker_threads');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
if (process.argv[2] === 'child') { process.send({ ok: true }); process.exit(0); }
fs.writeFileSync(path.join(os.tmpdir(), 'scratch.txt'), 'x');
fs.writeFileSync('build-output.txt', 'built');
const worker = new Worker('require("node:worker_threads").parentPort.postMessage(6 * 7)', { eval: true });
worker.on('message', (answer) => {
  const child = fork(__filename, ['child']);
  child.on('message', (message) => { if (answer === 42 && message.ok) console.log('node-tests-ok'); });
});
`;

const PY_TEST = `import multiprocessing, sqlite3, subprocess, tempfile, unittest

def square(x):
    return x * x

class Ordinary(unittest.TestCase):
    def test_subprocess(self):
        self.assertEqual(subprocess.run(['echo', 'hi'], capture_output=True, text=True).stdout, 'hi\\n')
    def test_pool(self):
        with multiprocessing.Pool(2) as pool:
            self.assertEqual(pool.map(square, [1, 2, 3]), [1, 4, 9])
    def test_tempfile_and_sqlite(self):
        with tempfile.NamedTemporaryFile() as f:
            db = sqlite3.connect(f.name)
            db.execute('create table t (x)')
            self.assertEqual(db.execute('select count(*) from t').fetchone()[0], 0)

if __name__ == '__main__':
    unittest.main()
`;

let dirs: CliSandboxDirs;
let run: BashRun | undefined;
let status: Awaited<ReturnType<typeof sandboxStatus>>;

beforeAll(async () => {
  await prepareCli();
  dirs = cliSandboxDirs();
  writeFileSync(path.join(dirs.project, 'package.json'), JSON.stringify({ name: 'demo', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }, null, 2));
  writeFileSync(path.join(dirs.project, 'test.js'), NODE_TEST);
  mkdirSync(path.join(dirs.project, 'tests'));
  writeFileSync(path.join(dirs.project, 'tests', 'test_ordinary.py'), PY_TEST);
  writeFileSync(path.join(dirs.project, '.gitignore'), 'node_modules\n__pycache__\n');
  status = await sandboxStatus(dirs.home);
  if (!status.active) return;
  run = await runBashCalls(dirs, [
    { id: 'git', command: `${GIT} add -A && ${GIT} commit -qm init && echo change >> README.md && git status --short && git diff --stat && git log --oneline | wc -l` },
    { id: 'npm_test', command: 'npm test --silent' },
    { id: 'python_tests', command: `${PY} -m unittest discover -s tests -q 2>&1` },
    { id: 'users', command: 'id -un && whoami && getent passwd root | cut -d: -f1' },
  ]);
}, 120_000);
afterAll(() => dirs?.cleanup());

test.each([
  ['git', /exit_code: 0\n M README.md\n README.md \| 1 \+\n 1 file changed, 1 insertion\(\+\)\n1$/],
  ['npm_test', /^exit_code: 0\n[\s\S]*node-tests-ok/],
  ['python_tests', /^exit_code: 0\n[\s\S]*Ran 3 tests[\s\S]*\nOK/],
  ['users', /^exit_code: 0\n(\S+)\n\1\nroot$/],
] as const)('%s runs in the sandbox without a prompt', (id, expected) => {
  if (skipWithoutSandbox(tally, `ordinary work: ${id}`, status)) return;
  expect(resultOf(run!, id)).toMatch(expected);
});
