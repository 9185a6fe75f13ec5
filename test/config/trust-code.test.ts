/** The code a trusted project's settings name is part of what its trust covers (config/trust-code.ts). */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_CODE_FILE_BYTES, shellWords } from '../../config/trust-code.js';
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

  it('a project without code-running settings reads no file of code (and stays as cheap as before)', async () => {
    put('.mewcode/settings.yaml', 'permissions:\n  deny: ["Read(./.env)"]\n');
    expect((await trust()).pending().settings).toEqual([]);
  });
});
