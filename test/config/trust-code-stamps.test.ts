/**
 * The trust scan's memory of what a project's code loads (config/trust-code-stamps.ts): a start
 * whose code did not change reads stamps instead of hashing again, and no change slips through it.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_CACHED_PROJECTS, STAMP_SETTLE_MS, codeCachePath } from '../../config/trust-code-stamps.js';
import { createWorkspaceTrust } from '../../config/trust.js';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-trust-stamps-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function put(rel: string, text: string, at = root): string {
  const file = path.join(at, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const trustOf = (projectRoot = root) => createWorkspaceTrust({ projectRoot, homeDir: home, env: {} });
const settle = () => new Promise((resolve) => setTimeout(resolve, STAMP_SETTLE_MS + 200));
const cachedProjects = () => Object.keys((JSON.parse(readFileSync(codeCachePath(home), 'utf8')) as { projects: Record<string, unknown> }).projects);

describe('the remembered closure of a trusted project', () => {
  beforeEach(async () => {
    put('.mcp.json', JSON.stringify({ mcpServers: { s: { command: 'node', args: ['mcp/server.cjs'] } } }));
    put('mcp/server.cjs', "const lib = require('./lib');\n");
    put('mcp/lib.js', 'module.exports = 1;\n');
    await settle(); // stamps taken well after the files' last change are the ones reused
    await (await trustOf()).grant();
    expect((await trustOf()).isTrusted()).toBe(true);
    expect(cachedProjects()).toEqual([root]);
    expect(statSync(codeCachePath(home)).mode & 0o777).toBe(0o600);
  });

  it('a module rewritten to the same size with its modification time put back is still seen (the change time moved)', async () => {
    const lib = path.join(root, 'mcp', 'lib.js');
    const before = statSync(lib);
    writeFileSync(lib, 'module.exports = 2;\n');
    utimesSync(lib, before.atime, before.mtime);
    expect(statSync(lib).size).toBe(before.size);
    expect((await trustOf()).isTrusted()).toBe(false);
    writeFileSync(lib, 'module.exports = 1;\n');
    expect((await trustOf()).isTrusted()).toBe(true);
  });

  it("a file added beside a module, which `require('./lib')` takes first, is seen (its folder's stamp moved)", async () => {
    put('mcp/lib', 'evil();\n');
    const after = await trustOf();
    expect(after.isTrusted()).toBe(false);
    expect(after.notice()).toContain('mcp/server.cjs: code');
  });

  it('a package planted in a node_modules nearer the code than the one it used is seen', async () => {
    put('mcp/server.cjs', "require('dep');\n");
    put('node_modules/dep/index.js', '1;\n');
    await settle();
    await (await trustOf()).grant();
    expect((await trustOf()).isTrusted()).toBe(true);
    put('mcp/node_modules/dep/index.js', 'evil();\n');
    expect((await trustOf()).isTrusted()).toBe(false);
  });

  it('a file made where a literal of the code names one (`runpy.run_path("lib/extra.py")`, missing when trusted) is seen (the folder looked in is stamped)', async () => {
    put('mcp/server.cjs', "require('node:child_process').fork(require('node:path').join(__dirname, 'plugins', 'extra.js'));\n");
    put('mcp/plugins/other.txt', 'x\n');
    put('tools/server.py', 'import runpy\nrunpy.run_path("lib/extra.py")\n');
    put('tools/lib/README', 'x\n');
    put('.mcp.json', JSON.stringify({ mcpServers: { s: { command: 'node', args: ['mcp/server.cjs'] }, p: { command: 'python3', args: ['tools/server.py'] } } }));
    await settle();
    await (await trustOf()).grant();
    expect((await trustOf()).isTrusted()).toBe(true);
    put('mcp/plugins/extra.js', 'evil();\n');
    expect((await trustOf()).isTrusted()).toBe(false);
    rmSync(path.join(root, 'mcp/plugins/extra.js'));
    await settle();
    await (await trustOf()).grant();
    expect((await trustOf()).isTrusted()).toBe(true);
    put('tools/lib/extra.py', 'evil()\n');
    expect((await trustOf()).isTrusted()).toBe(false);
  });

  it('is what a later start reads (a forged digest there is believed), unless others can write the file', async () => {
    const cache = codeCachePath(home);
    const content = JSON.parse(readFileSync(cache, 'utf8')) as { projects: Record<string, { code: Record<string, { digest: string }> }> };
    for (const entry of Object.values(content.projects[root]!.code)) entry.digest = 'sha256:forged';
    writeFileSync(cache, JSON.stringify(content)); // keeps its 0600
    expect((await trustOf()).isTrusted()).toBe(false);
    chmodSync(cache, 0o666);
    expect((await trustOf()).isTrusted()).toBe(true);
  });
});

it(`remembers the ${MAX_CACHED_PROJECTS} projects scanned last, not one more`, async () => {
  const roots = Array.from({ length: MAX_CACHED_PROJECTS + 1 }, (_, i) => path.join(base, `p${i}`));
  for (const [i, project] of roots.entries()) {
    put('.mcp.json', JSON.stringify({ mcpServers: { s: { command: 'node', args: ['s.js'] } } }), project);
    put('s.js', `${i};\n`, project);
  }
  await settle();
  for (const project of roots) await trustOf(project);
  const kept = cachedProjects();
  expect(kept).toHaveLength(MAX_CACHED_PROJECTS);
  expect(kept).not.toContain(roots[0]);
  expect(kept).toContain(roots.at(-1));
  expect(existsSync(codeCachePath(home))).toBe(true);
});
