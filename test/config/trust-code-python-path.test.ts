/**
 * Python searches the script's folder (the current folder for `-m` / `-c`) and the PYTHONPATH a
 * setting gives before its standard library and installed packages, so any module there shadows
 * what the code, the standard library or a package imports (`subprocess` imports `selectors`, the
 * MCP SDK `anyio`). A project's trust covers the names importable from those folders
 * (config/trust-code-python-path.ts): a module planted there after trust asks again, naming it.
 */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandCodeChangedSince } from '../../config/trust-code.js';
import { STAMP_SETTLE_MS } from '../../config/trust-code-stamps.js';
import { createWorkspaceTrust } from '../../config/trust.js';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-trust-pypath-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function put(rel: string, text = ''): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const trust = () => createWorkspaceTrust({ projectRoot: root, homeDir: home, env: {} });
const SERVER = 'import sys\nimport json\nimport subprocess\nsys.stdin.read(1)\n';

/** Trusts the project as it is, makes `plant`, and returns whether trust holds and the notice. */
async function afterPlanting(server: object, plant: () => void): Promise<{ trusted: boolean; notice: string }> {
  put('.mcp.json', JSON.stringify({ mcpServers: { helper: server } }));
  await (await trust()).grant();
  expect((await trust()).isTrusted()).toBe(true);
  plant();
  const next = await trust();
  return { trusted: next.isTrusted(), notice: next.notice() ?? '' };
}

describe('python3 server.py: a module planted beside the script after trust asks again, naming it', () => {
  it.each([
    ['selectors.py (the standard library imports it: subprocess)', 'selectors.py', () => put('selectors.py', 'evil()\n')],
    ['anyio.py (an installed package: the MCP SDK imports it)', 'anyio.py', () => put('anyio.py', 'evil()\n')],
    ['a package folder anyio/ with __init__.py', 'anyio/', () => put('anyio/__init__.py', 'evil()\n')],
    ['an extension module', '_json.cpython-311-x86_64-linux-gnu.so', () => put('_json.cpython-311-x86_64-linux-gnu.so', '\x7fELF')],
    ['a plain .so', 'selectors.so', () => put('selectors.so', '\x7fELF')],
    ['a sourceless .pyc', 'selectors.pyc', () => put('selectors.pyc', '')],
    ['a data file renamed to a module', 'selectors.py', () => renameSync(put('payload.txt', 'evil()\n'), path.join(root, 'selectors.py'))],
    ['a link to a package folder', 'anyio/', () => (put('../pkgs/anyio/__init__.py', 'evil()\n'), symlinkSync(path.join(root, '..', 'pkgs', 'anyio'), path.join(root, 'anyio')))],
  ])('%s', async (_name, named, plant) => {
    put('server.py', SERVER);
    const { trusted, notice } = await afterPlanting({ command: 'python3', args: ['server.py'] }, plant);
    expect(trusted).toBe(false);
    expect(notice).toContain(named);
  });

  it('a plain folder that was there when trusted, made a package since, asks again', async () => {
    put('server.py', SERVER);
    mkdirSync(path.join(root, 'anyio'));
    const { trusted, notice } = await afterPlanting({ command: 'python3', args: ['server.py'] }, () => put('anyio/__init__.py', 'evil()\n'));
    expect(trusted).toBe(false);
    expect(notice).toContain('anyio/');
  });

  it('in a subfolder: the script\'s folder is the one searched', async () => {
    put('srv/server.py', SERVER);
    const { trusted, notice } = await afterPlanting({ command: 'python3', args: ['srv/server.py'] }, () => put('srv/selectors.py', 'evil()\n'));
    expect(trusted).toBe(false);
    expect(notice).toContain('selectors.py');
  });

  it('a script a shell script runs (`sh run.sh` → `python3 server.py`), and `uv run`', async () => {
    put('server.py', SERVER);
    put('run.sh', 'exec python3 server.py\n');
    expect((await afterPlanting({ command: 'sh', args: ['run.sh'] }, () => put('anyio.py'))).trusted).toBe(false);
    rmSync(path.join(root, 'anyio.py'));
    expect((await afterPlanting({ command: 'uv', args: ['run', 'server.py'] }, () => put('httpx.py'))).trusted).toBe(false);
  });

  it('a start that reuses the remembered scan (stamps settled) covers the same folders', async () => {
    put('srv/server.py', SERVER);
    put('run.sh', 'exec python3 srv/server.py\n');
    put('.mcp.json', JSON.stringify({ mcpServers: { helper: { command: 'sh', args: ['run.sh'] } } }));
    await new Promise((resolve) => setTimeout(resolve, STAMP_SETTLE_MS + 200));
    await (await trust()).grant();
    expect((await trust()).isTrusted()).toBe(true);
    expect((await trust()).isTrusted()).toBe(true);
    put('srv/anyio.py', 'evil()\n');
    const next = await trust();
    expect(next.isTrusted()).toBe(false);
    expect(next.notice()).toContain('anyio.py');
  });

  it('a PYTHONPATH folder of the project the setting gives', async () => {
    put('server.py', SERVER);
    mkdirSync(path.join(root, 'lib'));
    const { trusted, notice } = await afterPlanting({ command: 'python3', args: ['server.py'], env: { PYTHONPATH: 'lib' } }, () => put('lib/pydantic.py', 'evil()\n'));
    expect(trusted).toBe(false);
    expect(notice).toContain('pydantic.py');
  });

  it.each([
    ['README.md', () => put('README.md', '# x\n')],
    ['data.json', () => put('data.json', '{}\n')],
    ['a folder whose name no import can spell (build-out/, .venv/)', () => (mkdirSync(path.join(root, 'build-out')), mkdirSync(path.join(root, '.venv')))],
    ['a folder without __init__ (a namespace portion never hides an installed module: PEP 420)', () => (mkdirSync(path.join(root, 'anyio')), mkdirSync(path.join(root, 'build')))],
    ['__pycache__/ (what Python writes itself)', () => put('__pycache__/x.cpython-311.pyc', '')],
    ['a file with no extension (Makefile, LICENSE)', () => (put('Makefile', 'x:\n'), put('LICENSE', 'MIT\n'))],
  ])('an unrelated entry does not change it: %s', async (_name, plant) => {
    put('server.py', SERVER);
    expect((await afterPlanting({ command: 'python3', args: ['server.py'] }, plant)).trusted).toBe(true);
  });
});

describe('python -m / -c: the working directory is searched first', () => {
  it.each([
    ['a package folder', 'anyio/', () => put('anyio/__init__.py', 'evil()\n')],
    ['an extension module', 'selectors.so', () => put('selectors.so', '\x7fELF')],
    ['a module', 'selectors.py', () => put('selectors.py', 'evil()\n')],
  ])('python -m pkg.mod: %s', async (_name, named, plant) => {
    put('pkg/__init__.py');
    put('pkg/mod.py', SERVER);
    const { trusted, notice } = await afterPlanting({ command: 'python3', args: ['-m', 'pkg.mod'] }, plant);
    expect(trusted).toBe(false);
    expect(notice).toContain(named);
  });

  it('python -c', async () => {
    expect((await afterPlanting({ command: 'python3', args: ['-c', 'import subprocess'] }, () => put('selectors/__init__.py', 'evil()\n'))).trusted).toBe(false);
  });
});

describe('during a session (a hook or MCP server of a trusted project, before each run)', () => {
  const later = async (): Promise<number> => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const at = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 30));
    return at;
  };
  it.each([
    ['selectors.py', () => put('selectors.py', 'evil()\n')],
    ['anyio/', () => put('anyio/__init__.py', 'evil()\n')],
    ['selectors.py', () => renameSync(path.join(root, 'payload.txt'), path.join(root, 'selectors.py'))],
  ])('python3 check.py: %s made beside it is found', async (named, plant) => {
    put('check.py', 'import subprocess\n');
    put('payload.txt', 'evil()\n');
    const since = await later();
    expect(commandCodeChangedSince({ command: 'python3 check.py' }, root, since)).toBeUndefined();
    plant();
    expect(commandCodeChangedSince({ command: 'python3 check.py' }, root, since)).toBe(named.replace(/\/$/, ''));
  });

  it('an unrelated file made beside it is not', async () => {
    put('check.py', 'import subprocess\n');
    const since = await later();
    put('notes.md', 'x\n');
    put('out.json', '{}\n');
    mkdirSync(path.join(root, '__pycache__'));
    expect(commandCodeChangedSince({ command: 'python3 check.py' }, root, since)).toBeUndefined();
  });

  it('python -m: the working directory', async () => {
    put('tools/__init__.py');
    put('tools/check.py', 'import subprocess\n');
    const since = await later();
    expect(commandCodeChangedSince({ command: 'python3 -m tools.check' }, root, since)).toBeUndefined();
    put('selectors/__init__.py', 'evil()\n');
    expect(commandCodeChangedSince({ command: 'python3 -m tools.check' }, root, since)).toMatch(/^selectors(\/__init__\.py)?$/);
  });
});
