/** The code a trusted project's settings name is part of what its trust covers (config/trust-code.ts). */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_CODE_FILE_BYTES, MAX_CODE_FILES, shellWords } from '../../config/trust-code.js';
import { createWorkspaceTrust } from '../../config/trust.js';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-trust-code-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function put(rel: string, text: string | Buffer, at = root): string {
  const file = path.join(at, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const trust = () => createWorkspaceTrust({ projectRoot: root, homeDir: home, env: {} });
const codeOf = async () => (await trust()).pending().settings.filter((s) => s.key === 'code').map((s) => s.file);

describe('which files are covered', () => {
  it('plugin entries: a file, a package directory (its manifest and main), a package of node_modules', async () => {
    put('.mewcode.yaml', 'plugins: [./p.mjs, ./dir-plugin, mewcode-plugin-x, ./missing.mjs]\n');
    put('p.mjs', 'export default {name: "p"};\n');
    put('dir-plugin/package.json', JSON.stringify({ main: 'lib/main.js' }));
    put('dir-plugin/lib/main.js', '');
    put('node_modules/mewcode-plugin-x/package.json', JSON.stringify({ name: 'mewcode-plugin-x', exports: { '.': { import: './esm.js' } } }));
    put('node_modules/mewcode-plugin-x/esm.js', '');
    expect((await codeOf()).sort()).toEqual(
      ['dir-plugin/lib/main.js', 'dir-plugin/package.json', 'node_modules/mewcode-plugin-x/esm.js', 'node_modules/mewcode-plugin-x/package.json', 'p.mjs'].sort(),
    );
  });

  it('command words and args naming project files, in every shape (mcp_servers, .mcp.json, hooks, rule files); not system programs or files outside', async () => {
    put('.mewcode.yaml', `mcp_servers:\n  a: {command: python3, args: ["-u", "srv/a.py", "--config=conf/a.json"], cwd: srv}\n  b: {command: "${path.join(base, 'outside.js')}"}\n`);
    put('.mcp.json', JSON.stringify({ mcpServers: { c: { command: 'node', args: ['./tools/c.js'] } } }));
    put('.mewcode/settings.yaml', 'hooks:\n  Stop:\n    - hooks:\n        - { type: command, command: "cd sub && \\"$CLAUDE_PROJECT_DIR\\"/scripts/h.sh | tee log; ${MEWCODE_PROJECT_DIR}/x.sh" }\n');
    put('.mewcode/hooks.yaml', 'hooks:\n  - name: r\n    event: Stop\n    action: { type: shell, command: "bash .mewcode/hooks/r.sh" }\n');
    for (const file of ['srv/a.py', 'conf/a.json', 'srv/b.py', 'tools/c.js', 'scripts/h.sh', 'x.sh', '.mewcode/hooks/r.sh']) put(file, '#\n');
    put('outside.js', '', base);
    expect((await codeOf()).sort()).toEqual(['.mewcode/hooks/r.sh', 'conf/a.json', 'scripts/h.sh', 'srv/a.py', 'tools/c.js', 'x.sh'].sort());
  });

  it('a file in a project directory whose name begins with `..` (`..tools/`, `.../`) is project code like any other', async () => {
    put('.mcp.json', JSON.stringify({ mcpServers: { a: { command: 'node', args: ['..tools/srv.js'] }, b: { command: './.../run.sh' } } }));
    put('..tools/srv.js', '#\n');
    put('.../run.sh', '#\n');
    expect((await codeOf()).sort()).toEqual(['..tools/srv.js', '.../run.sh'].sort());
  });

  it('a runner\'s task file: npm run → package.json, make → Makefile', async () => {
    put('.mcp.json', JSON.stringify({ mcpServers: { a: { command: 'npm', args: ['run', 'mcp'] } } }));
    put('.mewcode/settings.yaml', 'hooks:\n  Stop:\n    - hooks:\n        - { type: command, command: "make lint" }\n');
    put('package.json', '{"scripts": {"mcp": "node srv.js"}}');
    put('Makefile', 'lint:\n\ttrue\n');
    expect((await codeOf()).sort()).toEqual(['Makefile', 'package.json']);
  });

  it('an argument that is a script (`sh -c`, `node -e`) and an env value (`NODE_OPTIONS`) name files by their words', async () => {
    put('.mcp.json', JSON.stringify({ mcpServers: { a: { command: 'sh', args: ['-c', 'exec node mcp/server.mjs --x'] }, b: { command: 'node', args: ['srv.js'], env: { NODE_OPTIONS: '--require ./preload.cjs' } } } }));
    put('mcp/server.mjs', '#\n');
    put('srv.js', '#\n');
    put('preload.cjs', '#\n');
    expect((await codeOf()).sort()).toEqual(['mcp/server.mjs', 'preload.cjs', 'srv.js']);
  });

  it("a program of the project's node_modules/.bin, and the package a runner (npx, pnpm dlx) finds there", async () => {
    put('.mcp.json', JSON.stringify({ mcpServers: { a: { command: 'npx', args: ['--no-install', 'demo-mcp'] }, b: { command: 'pnpm', args: ['dlx', '@acme/tool@1.2.3'] } } }));
    put('.mewcode/settings.yaml', 'hooks:\n  Stop:\n    - hooks:\n        - { type: command, command: "prettier --check ." }\n');
    put('package.json', '{}');
    put('node_modules/demo-mcp/package.json', JSON.stringify({ name: 'demo-mcp', bin: { 'demo-mcp': 'bin/run.js' }, main: 'lib/index.js' }));
    put('node_modules/demo-mcp/bin/run.js', '#\n');
    put('node_modules/demo-mcp/lib/index.js', '#\n');
    put('node_modules/@acme/tool/package.json', JSON.stringify({ name: '@acme/tool', exports: { '.': { import: './esm.mjs', require: './cjs.cjs' } } }));
    put('node_modules/@acme/tool/esm.mjs', '#\n');
    put('node_modules/@acme/tool/cjs.cjs', '#\n');
    put('node_modules/prettier/bin/prettier.cjs', '#\n');
    mkdirSync(path.join(root, 'node_modules', '.bin'));
    symlinkSync('../prettier/bin/prettier.cjs', path.join(root, 'node_modules', '.bin', 'prettier'));
    expect((await codeOf()).sort()).toEqual(
      [
        'node_modules/.bin/prettier',
        'node_modules/@acme/tool/cjs.cjs',
        'node_modules/@acme/tool/esm.mjs',
        'node_modules/@acme/tool/package.json',
        'node_modules/demo-mcp/bin/run.js',
        'node_modules/demo-mcp/lib/index.js',
        'node_modules/demo-mcp/package.json',
        'package.json',
      ].sort(),
    );
  });

  it('splits command lines as a shell would (quotes, escapes, operators)', () => {
    expect(shellWords(`a "b c" 'd e'\\ f|g;h&&i>j $(k) "x\\"y"`)).toEqual(['a', 'b c', 'd e f', 'g', 'h', 'i', 'j', '$', 'k', 'x"y']);
  });
});

describe('what a change of the code does', () => {
  it('a rewritten script is no longer trusted; the notice marks it changed; unchanged, it stays trusted', async () => {
    put('.mcp.json', JSON.stringify({ mcpServers: { c: { command: 'node', args: ['tools/c.js'] } } }));
    put('tools/c.js', 'good\n');
    await (await trust()).grant();
    expect((await trust()).source).toBe('stored');
    put('tools/c.js', 'evil\n');
    const after = await trust();
    expect(after.isTrusted()).toBe(false);
    expect(after.notice()).toMatch(/ {2}tools\/c\.js: code: run by \.mcp\.json: mcpServers \(5 bytes\) \(changed\)\n/);
    expect(after.pending().settings.find((s) => s.file === 'tools/c.js')?.summary).toMatch(/^changed since you trusted it: /);
  });

  it('a file linked to another keeps the link target\'s content under trust (a rewritten target asks again)', async () => {
    put('real/c.js', 'good\n');
    mkdirSync(path.join(root, 'tools'));
    symlinkSync('../real/c.js', path.join(root, 'tools', 'c.js'));
    put('.mcp.json', JSON.stringify({ mcpServers: { c: { command: 'node', args: ['tools/c.js'] } } }));
    await (await trust()).grant();
    put('real/c.js', 'evil\n');
    expect((await trust()).isTrusted()).toBe(false);
  });

  it(`a file over ${MAX_CODE_FILE_BYTES / 1024 / 1024} MiB cannot be verified: never trusted from storage, and the notice says why`, async () => {
    put('.mewcode.yaml', 'plugins: [./big.mjs]\n');
    put('big.mjs', Buffer.alloc(MAX_CODE_FILE_BYTES + 1, 0x20));
    await (await trust()).grant();
    const next = await trust();
    expect(next.isTrusted()).toBe(false);
    expect(next.notice()).toContain('big.mjs: code: run by .mewcode.yaml: plugins (too large to verify');
    expect(next.notice()).toContain('are never remembered as trusted: each start asks again');
    // --trust-project still trusts it for one run.
    expect((await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true })).isTrusted()).toBe(true);
  });

  it('what the code loads in turn (JavaScript, TypeScript, Python, shell) is covered: a rewritten module asks again', async () => {
    put('.mcp.json', JSON.stringify({ mcpServers: { js: { command: 'node', args: ['mcp/server.mjs'] }, py: { command: 'python3', args: ['tools/srv.py'] }, sh: { command: 'bash', args: ['tools/run.sh'] } } }));
    put('mcp/server.mjs', "import { helper } from './lib.mjs';\nconst x = await import('./dyn.js');\nimport sdk from 'dep';\n");
    put('mcp/lib.mjs', "export * from './deeper.ts';\nconst c = require('../shared/c.cjs');\n");
    put('mcp/deeper.ts', '// typed\n');
    put('mcp/dyn.js', '//\n');
    put('shared/c.cjs', '//\n');
    put('node_modules/dep/package.json', JSON.stringify({ name: 'dep', main: 'main.js' }));
    put('node_modules/dep/main.js', "module.exports = require('./inner');\n");
    put('node_modules/dep/inner.js', '//\n');
    put('tools/srv.py', 'import helpers\nfrom pkg.sub import thing\nfrom . import sibling\n');
    put('tools/helpers.py', '#\n');
    put('tools/sibling.py', '#\n');
    put('pkg/__init__.py', '#\n');
    put('pkg/sub.py', '#\n');
    put('tools/run.sh', '#!/bin/bash\nsource ./tools/env.sh\nnode tools/job.js\n');
    put('tools/env.sh', 'export A=1\n');
    put('tools/job.js', '//\n');
    const trusted = await trust();
    const listed = trusted.pending().settings.filter((s) => s.key === 'code');
    expect(listed.map((s) => s.file).sort()).toEqual(['mcp/server.mjs', 'tools/run.sh', 'tools/srv.py']);
    expect(listed.find((s) => s.file === 'mcp/server.mjs')?.summary).toMatch(/with the 7 files it loads/);
    await trusted.grant();
    for (const file of ['mcp/deeper.ts', 'node_modules/dep/inner.js', 'pkg/sub.py', 'tools/sibling.py', 'tools/env.sh', 'tools/job.js', 'shared/c.cjs']) {
      expect((await trust()).isTrusted()).toBe(true);
      const before = readFileSync(path.join(root, file));
      put(file, 'evil\n');
      const after = await trust();
      expect([file, after.isTrusted()]).toEqual([file, false]);
      expect(after.notice()).toMatch(/\(changed\)/);
      put(file, before);
    }
  });

  it.each([
    ['python -m <module> (a package and its __main__)', { command: 'python3', args: ['-m', 'srv'] }, { 'srv/__init__.py': '', 'srv/__main__.py': 'print(1)\n' }, 'srv/__main__.py'],
    ['python -m <module> (a module file)', { command: 'python3', args: ['-m', 'server'] }, { 'server.py': 'print(1)\n' }, 'server.py'],
    ['python -c code importing a project module', { command: 'python3', args: ['-c', 'import srvmod; srvmod.main()'] }, { 'srvmod.py': 'def main(): pass\n' }, 'srvmod.py'],
    ["node -e code requiring a file without its extension", { command: 'node', args: ['-e', "require('./mcp/srv')"] }, { 'mcp/srv.js': '1;\n' }, 'mcp/srv.js'],
    ['node preloading a file without its extension (NODE_OPTIONS)', { command: 'node', args: ['mcp/server.mjs'], env: { NODE_OPTIONS: '--require ./mcp/pre' } }, { 'mcp/server.mjs': '1;\n', 'mcp/pre.js': '1;\n' }, 'mcp/pre.js'],
    ["node running a script named without its extension, and what it requires", { command: 'node', args: ['bin/server'] }, { 'bin/server': "require('../lib/impl.js');\n", 'lib/impl.js': '1;\n' }, 'lib/impl.js'],
    ['sh running a script with no extension, and what it runs', { command: 'sh', args: ['scripts/start'] }, { 'scripts/start': 'exec node mcp/server.mjs\n', 'mcp/server.mjs': '1;\n' }, 'mcp/server.mjs'],
    ["package.json imports (#lib)", { command: 'node', args: ['mcp/server.mjs'] }, { 'package.json': JSON.stringify({ imports: { '#lib': './mcp/lib.mjs' } }), 'mcp/server.mjs': "import '#lib';\n", 'mcp/lib.mjs': '1;\n' }, 'mcp/lib.mjs'],
    ['NODE_PATH', { command: 'node', args: ['mcp/server.cjs'], env: { NODE_PATH: 'lib' } }, { 'mcp/server.cjs': "require('helper');\n", 'lib/helper.js': '1;\n' }, 'lib/helper.js'],
    ['PYTHONPATH', { command: 'python3', args: ['tools/server.py'], env: { PYTHONPATH: 'src' } }, { 'tools/server.py': 'import helper\n', 'src/helper.py': 'x = 1\n' }, 'src/helper.py'],
    ['importlib.import_module with a literal name', { command: 'python3', args: ['srv.py'] }, { 'srv.py': 'import importlib\nh = importlib.import_module("handlers")\n', 'handlers.py': 'x = 1\n' }, 'handlers.py'],
    ['what `npm run` runs (the script in package.json)', { command: 'npm', args: ['run', '-s', 'mcp'] }, { 'package.json': JSON.stringify({ scripts: { mcp: 'node mcp/server.mjs' } }), 'mcp/server.mjs': '1;\n' }, 'mcp/server.mjs'],
    ["what `make` runs (a Makefile's recipe)", { command: 'make', args: ['-s', 'mcp'] }, { Makefile: '.PHONY: mcp\nmcp:\n\t@node mcp/server.mjs\n', 'mcp/server.mjs': '1;\n' }, 'mcp/server.mjs'],
    ["a package's dependency in pnpm's layout (resolved from the package's real path)", { command: 'node', args: ['mcp/server.mjs'] }, { 'mcp/server.mjs': "import 'lib';\n", 'node_modules/.pnpm/lib@1.0.0/node_modules/lib/package.json': JSON.stringify({ main: 'index.js' }), 'node_modules/.pnpm/lib@1.0.0/node_modules/lib/index.js': "require('dep');\n", 'node_modules/.pnpm/dep@1.0.0/node_modules/dep/package.json': JSON.stringify({ main: 'index.js' }), 'node_modules/.pnpm/dep@1.0.0/node_modules/dep/index.js': '1;\n', 'node_modules/.pnpm/lib@1.0.0/node_modules/dep': { link: '../../dep@1.0.0/node_modules/dep' }, 'node_modules/lib': { link: '.pnpm/lib@1.0.0/node_modules/lib' } }, 'node_modules/.pnpm/dep@1.0.0/node_modules/dep/index.js'],
  ] as const)('what a server runs is covered: %s', async (_name, server, files, target) => {
    put('.mcp.json', JSON.stringify({ mcpServers: { s: server } }));
    for (const [rel, content] of Object.entries(files as Record<string, string | { link: string }>)) {
      if (typeof content === 'string') put(rel, content);
      else {
        mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        symlinkSync(content.link, path.join(root, rel));
      }
    }
    await (await trust()).grant();
    expect((await trust()).isTrusted()).toBe(true);
    put(target, 'evil();\n');
    expect([target, (await trust()).isTrusted()]).toEqual([target, false]);
  });

  it("`npm run <script>` follows that script and its pre/post scripts, not the package's other scripts (a `build` running a 9 MB compiler would make every start ask)", async () => {
    put('.mcp.json', JSON.stringify({ mcpServers: { s: { command: 'npm', args: ['run', '-s', 'mcp'] } } }));
    put('package.json', JSON.stringify({ scripts: { premcp: 'node tools/pre.js', mcp: 'node mcp/server.mjs', build: 'node tools/build.js' } }));
    put('mcp/server.mjs', '1;\n');
    put('tools/pre.js', '1;\n');
    put('tools/build.js', '1;\n');
    expect((await codeOf()).sort()).toEqual(['mcp/server.mjs', 'package.json', 'tools/pre.js']);
  });

  it(`past ${MAX_CODE_FILES} files of code in all, what is past the bound is never trusted from storage (nothing left uncovered silently)`, async () => {
    const imports = Array.from({ length: MAX_CODE_FILES + 1 }, (_, i) => `import './m/${i}.js';`).join('\n');
    put('.mcp.json', JSON.stringify({ mcpServers: { js: { command: 'node', args: ['big/server.mjs'] } } }));
    put('big/server.mjs', imports);
    for (let i = 0; i <= MAX_CODE_FILES; i++) put(`big/m/${i}.js`, '//\n');
    const first = await trust();
    await first.grant();
    const next = await trust();
    expect(next.isTrusted()).toBe(false);
    expect(next.notice()).toContain(`loads more than ${MAX_CODE_FILES} files of code in all`);
    expect(next.warnings.join('\n')).toContain('asked again at every start');
  });

  it(`exactly ${MAX_CODE_FILES} files in all are covered and remembered`, async () => {
    const imports = Array.from({ length: MAX_CODE_FILES - 1 }, (_, i) => `import './m/${i}.js';`).join('\n');
    put('.mcp.json', JSON.stringify({ mcpServers: { js: { command: 'node', args: ['big/server.mjs'] } } }));
    put('big/server.mjs', imports);
    for (let i = 0; i < MAX_CODE_FILES - 1; i++) put(`big/m/${i}.js`, '//\n');
    await (await trust()).grant();
    expect((await trust()).isTrusted()).toBe(true);
    put(`big/m/${MAX_CODE_FILES - 2}.js`, 'evil\n');
    expect((await trust()).isTrusted()).toBe(false);
  });

  it('a project without code-running settings reads no file of code (and stays as cheap as before)', async () => {
    put('.mewcode/settings.yaml', 'permissions:\n  deny: ["Read(./.env)"]\n');
    expect((await trust()).pending().settings).toEqual([]);
  });
});
