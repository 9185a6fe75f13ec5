/**
 * What a file of code loads in turn (config/trust-code-loads.ts), read from its text: every
 * literal way a loader may be given a project file is followed, in any position of a statement,
 * so a module a sandboxed command rewrites later is under the trust that covers its importer.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_PARSED_BYTES, directLoads, packageFiles } from '../../config/trust-code-loads.js';
import { MAX_CODE_FILE_BYTES, MAX_CODE_FILES, commandCodeChangedSince } from '../../config/trust-code.js';
import { createWorkspaceTrust } from '../../config/trust.js';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-trust-loads-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function put(rel: string, text: string): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const noWords = (): string[] => [];
/** What `rel` loads directly, relative to the root, sorted. */
const loadsOf = (rel: string): string[] => [...new Set(directLoads(path.join(root, rel), root, noWords).map((file) => path.relative(root, file)))].sort();

type Files = Record<string, string>;
// [form, the server file and the files around it, the module that must be covered]
const python: [string, Files, string][] = [
  ['a multi-line parenthesised from-import', { 'srv/server.py': 'from util import (\n    main,\n    other,  # comment\n)\n', 'srv/util.py': '' }, 'srv/util.py'],
  ['from util import *', { 'srv/server.py': 'from util import *\n', 'srv/util.py': '' }, 'srv/util.py'],
  ['from lib.util import *', { 'srv/server.py': 'from lib.util import *\n', 'srv/lib/__init__.py': '', 'srv/lib/util.py': '' }, 'srv/lib/util.py'],
  ['from pkg import * (every module of the package: its __all__ may name them)', { 'server.py': 'from pkg import *\n', 'pkg/__init__.py': "__all__ = ['a']\n", 'pkg/a.py': '' }, 'pkg/a.py'],
  ['an import after `;`', { 'server.py': 'import sys; import util\n', 'util.py': '' }, 'util.py'],
  ['an import after `try:` on one line', { 'server.py': 'try: import util\nexcept ImportError: util = None\n', 'util.py': '' }, 'util.py'],
  ['an import after `if …:` on one line', { 'server.py': 'import os\nif os.name: from helpers import run\n', 'helpers.py': '' }, 'helpers.py'],
  ['an import inside a function (indented)', { 'server.py': 'def f():\n        import lazy\n', 'lazy.py': '' }, 'lazy.py'],
  ['a backslash-continued import', { 'server.py': 'import os, \\\n    util\n', 'util.py': '' }, 'util.py'],
  ['import a as b, c', { 'server.py': 'import os as o, util as u\n', 'util.py': '' }, 'util.py'],
  ['from . import x', { 'pkg/server.py': 'from . import sib\n', 'pkg/sib.py': '' }, 'pkg/sib.py'],
  ['from .import x (no space)', { 'pkg/server.py': 'from .import sib\n', 'pkg/sib.py': '' }, 'pkg/sib.py'],
  ['from .pkg.mod import y', { 'a/server.py': 'from .inner.mod import y\n', 'a/inner/__init__.py': '', 'a/inner/mod.py': '' }, 'a/inner/mod.py'],
  ['from .. import z', { 'a/b/server.py': 'from .. import z\n', 'a/z.py': '' }, 'a/z.py'],
  ['from ..pkg import (\\n a,\\n b)', { 'a/b/server.py': 'from ..pkg import (\n    a,\n    b,\n)\n', 'a/pkg/__init__.py': '', 'a/pkg/b.py': '' }, 'a/pkg/b.py'],
  ['a package import covers its __init__.py', { 'server.py': 'import pkg\n', 'pkg/__init__.py': '' }, 'pkg/__init__.py'],
  ['from pkg import name covers pkg/name.py', { 'server.py': 'from pkg import name\n', 'pkg/__init__.py': '', 'pkg/name.py': '' }, 'pkg/name.py'],
  ['importlib.import_module("literal")', { 'server.py': 'import importlib\nm = importlib.import_module("handlers.h")\n', 'handlers/h.py': '' }, 'handlers/h.py'],
  ["import_module('.rel', package)", { 'pkg/server.py': "from importlib import import_module\nm = import_module('.plug', __package__)\n", 'pkg/plug.py': '' }, 'pkg/plug.py'],
  ['__import__("literal")', { 'server.py': "m = __import__('util')\n", 'util.py': '' }, 'util.py'],
  ['runpy.run_module("literal")', { 'server.py': "import runpy\nrunpy.run_module('tool')\n", 'tool.py': '' }, 'tool.py'],
  ['runpy.run_path("util.py")', { 'srv/server.py': 'import runpy; runpy.run_path("util.py")\n', 'srv/util.py': '' }, 'srv/util.py'],
  ['exec(open("x.py").read())', { 'server.py': "exec(open('x.py').read())\n", 'x.py': '' }, 'x.py'],
  ['a path joined from literals', { 'srv/server.py': 'import os\np = os.path.join(os.path.dirname(__file__), "lib", "util.py")\n', 'srv/lib/util.py': '' }, 'srv/lib/util.py'],
  ['a pathlib path joined with /', { 'srv/server.py': 'from pathlib import Path\np = Path(__file__).parent / "lib" / "util.py"\n', 'srv/lib/util.py': '' }, 'srv/lib/util.py'],
  ['subprocess running a project script (relative to the root)', { 'srv/server.py': "import subprocess\nsubprocess.run(['bash', 'scripts/job.sh'])\n", 'scripts/job.sh': '' }, 'scripts/job.sh'],
  ['a command line in one string', { 'srv/server.py': "import os\nos.system('ruby tools/x.rb --flag')\n", 'tools/x.rb': '' }, 'tools/x.rb'],
];
const js: [string, Files, string][] = [
  ["new Worker(new URL('./util.mjs', import.meta.url))", { 'srv/server.mjs': "import { Worker } from 'node:worker_threads';\nnew Worker(new URL('./util.mjs', import.meta.url));\n", 'srv/util.mjs': '' }, 'srv/util.mjs'],
  ["fork('./util.mjs')", { 'srv/server.mjs': "import { fork } from 'node:child_process';\nfork('./util.mjs');\n", 'srv/util.mjs': '' }, 'srv/util.mjs'],
  ['createRequire under another name', { 'srv/server.mjs': "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nload('./util.cjs');\n", 'srv/util.cjs': '' }, 'srv/util.cjs'],
  ["await import(/* comment */ './util.mjs')", { 'srv/server.mjs': "await import(/* comment */ './util.mjs');\n", 'srv/util.mjs': '' }, 'srv/util.mjs'],
  ['import( // line comment \\n spec)', { 'srv/server.mjs': "await import( // why\n  './util.mjs');\n", 'srv/util.mjs': '' }, 'srv/util.mjs'],
  ['require /* c */ (spec)', { 'srv/server.cjs': "const u = require /* c */ ('./util');\n", 'srv/util.js': '' }, 'srv/util.js'],
  ['a relative name in a template literal', { 'srv/server.mjs': 'await import(`./util.mjs`);\n', 'srv/util.mjs': '' }, 'srv/util.mjs'],
  ['a relative name without extension in any call', { 'srv/server.mjs': "const p = resolvePlugin('./plugins/a');\n", 'srv/plugins/a.js': '' }, 'srv/plugins/a.js'],
  ['a relative folder (its index) in any call', { 'srv/server.mjs': "loadAll('../lib');\n", 'lib/index.mjs': '' }, 'lib/index.mjs'],
  ["spawn('node', ['worker.js']) (from the project root)", { 'srv/server.mjs': "import { spawn } from 'node:child_process';\nspawn('node', ['worker.js']);\n", 'worker.js': '' }, 'worker.js'],
  ['path.join(__dirname, literals…)', { 'srv/server.cjs': "const { Worker } = require('worker_threads');\nnew Worker(require('path').join(__dirname, 'lib', 'w.js'));\n", 'srv/lib/w.js': '' }, 'srv/lib/w.js'],
  ["__dirname + '/util.js'", { 'srv/server.cjs': "require(__dirname + '/util.js');\n", 'srv/util.js': '' }, 'srv/util.js'],
  ['a template with a folder prefix', { 'srv/server.mjs': 'await import(`${here}/util.mjs`);\n', 'srv/util.mjs': '' }, 'srv/util.mjs'],
  ['a bare package through a renamed require', { 'srv/server.mjs': "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nload('dep');\n", 'node_modules/dep/package.json': '{"main":"main.js"}', 'node_modules/dep/main.js': '' }, 'node_modules/dep/main.js'],
  ['import.meta.resolve of a package', { 'srv/server.mjs': "const u = import.meta.resolve(/* x */ 'dep');\n", 'node_modules/dep/package.json': '{"main":"main.js"}', 'node_modules/dep/main.js': '' }, 'node_modules/dep/main.js'],
  ['export * from after a comment', { 'srv/server.ts': "export /* all */ * from './util.js';\n", 'srv/util.ts': '' }, 'srv/util.ts'],
];
const others: [string, Files, string][] = [
  ['a Ruby script requiring a file', { 'srv/server.rb': "require_relative 'util'\nload 'util.rb'\n", 'srv/util.rb': '' }, 'srv/util.rb'],
  ['a Perl script doing a file', { 'srv/server.pl': 'do "./util.pl";\n', 'srv/util.pl': '' }, 'srv/util.pl'],
  ['a Lua script running a file', { 'srv/server.lua': 'dofile("srv/util.lua")\n', 'srv/util.lua': '' }, 'srv/util.lua'],
  ['a PHP script including a file', { 'srv/server.php': "<?php require_once __DIR__ . '/util.php';\n", 'srv/util.php': '' }, 'srv/util.php'],
  ['a shell script sourcing with `.`', { 'srv/run.sh': '. ./srv/util.sh\n', 'srv/util.sh': '' }, 'srv/util.sh'],
];

describe('every literal way code names a project module is followed', () => {
  it.each([...python, ...js, ...others])('%s', (_name, files, target) => {
    for (const [rel, text] of Object.entries(files)) put(rel, text);
    const [server] = Object.keys(files);
    expect(loadsOf(server!)).toContain(target);
  });

  it('a name built at run time is not seen (documented), and nothing outside the project is listed', () => {
    put('srv/server.py', 'import importlib, sys\nm = importlib.import_module(sys.argv[1])\nexec(open("/etc/hostname").read())\n');
    put('srv/other.py', '');
    expect(loadsOf('srv/server.py')).toEqual([]);
  });

  it('a word that only looks like code in prose or data is followed only when such a file exists', () => {
    put('srv/server.py', '"""Runs like util.py but see missing.py."""\n');
    put('srv/util.py', '');
    expect(loadsOf('srv/server.py')).toEqual(['srv/util.py']);
  });
});

describe('the trust of a project covers them: a module rewritten after trust asks again', () => {
  const trust = () => createWorkspaceTrust({ projectRoot: root, homeDir: home, env: {} });
  it.each([...python, ...js, ...others])('%s', async (_name, files, target) => {
    for (const [rel, text] of Object.entries(files)) put(rel, text);
    const [server] = Object.keys(files);
    const runner = server!.endsWith('.py') ? 'python3' : server!.endsWith('.sh') ? 'bash' : server!.endsWith('.rb') ? 'ruby' : server!.endsWith('.pl') ? 'perl' : server!.endsWith('.lua') ? 'lua' : server!.endsWith('.php') ? 'php' : 'node';
    put('.mcp.json', JSON.stringify({ mcpServers: { s: { command: runner, args: [server] } } }));
    await (await trust()).grant();
    expect((await trust()).isTrusted()).toBe(true);
    put(target, 'evil()\n');
    expect([target, (await trust()).isTrusted()]).toEqual([target, false]);
  });

  it('the same forms in a project plugin entry', async () => {
    put('.mewcode.yaml', 'plugins: [./plugins/p.mjs]\n');
    put('plugins/p.mjs', "import { fork } from 'node:child_process';\nexport default { name: 'p', start: () => fork(new URL('./child.mjs', import.meta.url)) };\n");
    put('plugins/child.mjs', '');
    await (await trust()).grant();
    put('plugins/child.mjs', 'evil()\n');
    expect((await trust()).isTrusted()).toBe(false);
  });
});

describe('at the bounds the scan fails closed: what it cannot follow is never trusted from storage', () => {
  const trust = () => createWorkspaceTrust({ projectRoot: root, homeDir: home, env: {} });
  const rewriteAsksAgain = async (server: object, target: string): Promise<void> => {
    put('.mcp.json', JSON.stringify({ mcpServers: { s: server } }));
    await (await trust()).grant();
    put(target, 'evil()\n');
    expect([target, (await trust()).isTrusted()]).toEqual([target, false]);
  };

  it('every file small enough to be hashed is read for what it loads (a 5 MiB bundle importing a module)', async () => {
    expect(MAX_PARSED_BYTES).toBeGreaterThanOrEqual(MAX_CODE_FILE_BYTES);
    put('srv/server.mjs', `import './util.mjs';\n//${'x'.repeat(5 * 1024 * 1024)}\n`);
    put('srv/util.mjs', '');
    await rewriteAsksAgain({ command: 'node', args: ['srv/server.mjs'] }, 'srv/util.mjs');
  });

  it(`from pkg import * over a package of more than ${MAX_CODE_FILES} modules: never trusted from storage`, async () => {
    put('server.py', 'from pkg import *\n');
    put('pkg/__init__.py', '');
    for (let i = 0; i <= MAX_CODE_FILES; i++) put(`pkg/m${i}.py`, '');
    put('.mcp.json', JSON.stringify({ mcpServers: { s: { command: 'python3', args: ['server.py'] } } }));
    await (await trust()).grant();
    const next = await trust();
    expect(next.isTrusted()).toBe(false);
    expect(next.notice()).toContain(`loads more than ${MAX_CODE_FILES} files of code in all`);
  });

  it('python -c: a module of the current folder among thousands of other entries is covered (not only the first few hundred listed)', async () => {
    // Made first: a listing in creation order (or newest first, as tmpfs gives) sees it at one end.
    put('argparse.py', '');
    for (let i = 0; i < 3000; i++) put(`d${i}.txt`, '');
    put('zz_last.py', '');
    await rewriteAsksAgain({ command: 'python3', args: ['-c', 'import json'] }, 'argparse.py');
    await rewriteAsksAgain({ command: 'python3', args: ['-c', 'import json'] }, 'zz_last.py');
  });

  it('python -c / node -e code naming a file to run', async () => {
    put('tool.py', '');
    put('w.cjs', '');
    await rewriteAsksAgain({ command: 'python3', args: ['-c', "exec(open('tool.py').read())"] }, 'tool.py');
    await rewriteAsksAgain({ command: 'node', args: ['-e', "require('node:child_process').fork('w.cjs')"] }, 'w.cjs');
  });
});

describe('during a session (what stops an MCP server whose code changed)', () => {
  const later = async (): Promise<number> => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const at = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 30));
    return at;
  };
  it.each([
    ['python3 server.py', 'server.py', 'from util import (\n    main,\n)\n', 'util.py'],
    ['python3 server.py', 'server.py', 'import sys; import util\n', 'util.py'],
    ['node server.mjs', 'server.mjs', "fork('./util.mjs');\n", 'util.mjs'],
    ['node server.mjs', 'server.mjs', "await import(/* c */ './util.mjs');\n", 'util.mjs'],
  ])('%s (%s: %j): a change of %s is found', async (command, server, text, target) => {
    put(server, text);
    put(target, '');
    const since = await later();
    expect(commandCodeChangedSince({ command }, root, since)).toBeUndefined();
    put(target, 'evil()\n');
    expect(commandCodeChangedSince({ command }, root, since)).toBe(target);
  });

  it('a file made during the session where a literal names one (missing before) is found', async () => {
    put('server.mjs', "import { fork } from 'node:child_process';\nfork(new URL('plugins/extra.mjs', import.meta.url));\n");
    put('plugins/README', 'x\n');
    const since = await later();
    expect(commandCodeChangedSince({ command: 'node server.mjs' }, root, since)).toBeUndefined();
    put('plugins/extra.mjs', 'evil()\n');
    expect(commandCodeChangedSince({ command: 'node server.mjs' }, root, since)).toBe('plugins/extra.mjs');
  });
});

test("a package's files are what runs: its `types` condition's declaration files are not counted as code", () => {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'trust-pkg-')));
  try {
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } }));
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, 'dist', 'index.js'), 'export default 1;\n');
    writeFileSync(path.join(dir, 'dist', 'index.d.ts'), 'declare const x: number; export default x;\n');
    const files = packageFiles(dir, '.').map((file) => path.relative(dir, file));
    expect(files).toContain(path.join('dist', 'index.js'));
    expect(files.filter((file) => file.endsWith('.d.ts'))).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
