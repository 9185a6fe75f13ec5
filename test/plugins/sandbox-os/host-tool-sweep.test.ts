/**
 * The sweep after a sandboxed command (git-sweep.ts, settings-sweep.ts) on the files other tools
 * on the host act on when the folder is opened or entered (sdk/host-tool-files.ts), on a real
 * file system: other agents' settings made by the command are set aside wherever they are (the
 * root's `opencode.json` too); toolchain files are set aside, at the root as below it, only when
 * they name a program or a path; version bumps and what was there before are left alone.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitBaseline, QUARANTINE_SUFFIX, sweepGitDirs } from '../../../plugins/sandbox-os/git-sweep.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-hosttools-')));
  execFileSync('git', ['init', '-q'], { cwd: root, env: { PATH: process.env.PATH, HOME: root } });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string): void => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

/** Files made before the command: their times are before `since`. */
function before(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) write(file, text);
  const start = Date.now();
  while (Date.now() - start < 30);
}

/** The baseline, then `act` (the "command"), then the sweep: what it set aside, relative, sorted, with why. */
async function around(act: () => void): Promise<{ moved: string[]; why: string[] }> {
  const baseline = await gitBaseline([root]);
  const since = Date.now() - 20;
  act();
  const { quarantined } = await sweepGitDirs([root], since, baseline);
  return { moved: quarantined.map((q) => path.relative(root, q.path)).sort(), why: quarantined.map((q) => `${q.why}; ${q.runBy}`) };
}

test("other agents' settings made by the command are set aside, the root's opencode.json and *.code-workspace included (no mount point is made for those while missing)", async () => {
  const { moved, why } = await around(() => {
    write('opencode.json', '{"mcp":{"h":{"type":"local","command":["sh","-c","id"]}}}');
    write('app.code-workspace', '{"tasks":{"tasks":[{"command":"id","runOptions":{"runOn":"folderOpen"}}]}}');
    write('pkg/.opencode/plugin/fmt.js', 'import "node:fs";');
    write('pkg/.gemini/settings.json', '{"mcpServers":{"h":{"command":"sh"}}}');
    write('pkg/crush.json', '{}');
    write('pkg/.Cursor/mcp.json', '{}');
    write('pkg/.pnpmfile.cjs', 'module.exports = {}');
  });
  expect(moved).toEqual(['app.code-workspace', 'opencode.json', 'pkg/.Cursor', 'pkg/.gemini', 'pkg/.opencode', 'pkg/.pnpmfile.cjs', 'pkg/crush.json']);
  expect(why[0]).toContain('an editor or agent opening this folder would have run what they name');
  expect(existsSync(path.join(root, `opencode.json${QUARANTINE_SUFFIX}`))).toBe(true);
});

test('a toolchain file made or changed to name a program or a path is set aside, at the root and below it, with what it names and who would have run it', async () => {
  before({ 'mise.toml': '[env]\nAPP_ENV = "dev"\n', 'svc/.npmrc': 'save-exact=true\n' });
  const { moved, why } = await around(() => {
    write('.tool-versions', `node path:${root}/.cache/node\n`);
    appendFileSync(path.join(root, 'mise.toml'), '_.source = "./.cache/env.sh"\n[hooks]\nenter = "id"\n');
    write('pkg/rust-toolchain.toml', '[toolchain]\npath = "../.cache/tc"\n');
    write('.yarnrc.yml', 'yarnPath: .yarn/releases/yarn-4.5.0.cjs\n');
    appendFileSync(path.join(root, 'svc', '.npmrc'), `git=${root}/.cache/g\n`);
    write('.config/mise/conf.d/a.toml', '[hooks]\nenter = "id"\n');
    write('web/global.json', '{"sdk":{"paths":[".dotnet"]}}');
  });
  expect(moved).toEqual(['.config/mise/conf.d/a.toml', '.tool-versions', '.yarnrc.yml', 'mise.toml', 'pkg/rust-toolchain.toml', 'svc/.npmrc', 'web/global.json']);
  expect(why.join('\n')).toContain("a tool-version file (asdf, mise) naming a tool version given as `path:`; mise or asdf would have put what it names first on PATH");
  expect(why.join('\n')).toContain("mise's configuration naming the [env] table, a `env._.source` directive (sources a script, or adds to PATH), the [hooks] table; mise would have run what it names");
  expect(readFileSync(path.join(root, `mise.toml${QUARANTINE_SUFFIX}`), 'utf8')).toContain('[hooks]');
});

test('a version leading out through a parent step anywhere in it, corepack, SDKMAN!, Yarn and RVM files naming a path or a variable: set aside', async () => {
  before({ '.java-version': '21\n', 'package.json': '{"packageManager":"yarn@1.22.22"}' });
  const { moved, why } = await around(() => {
    write('.java-version', '21/../../../project/.jdk\n');
    write('svc/.go-version', '1.22.0/../../../../project/.go\n');
    write('.sdkmanrc', 'java=../../../project/.jdk\n');
    write('.corepack.env', `COREPACK_HOME=${root}/.cache/corepack\n`);
    write('web/.env.yarn', 'NODE_OPTIONS=--require ./x.js\n');
    write('rb/.versions.conf', 'ruby=3.3.0\nenv-PATH=./bin:$PATH\n');
    write('rb/.ruby-gemset', '../../../../project/gems\n');
    write('.tool-versions', 'java 21/../../../project/.jdk\n');
    write('.python-version', '3.12/envs/../../../x\n');
  });
  expect(moved).toEqual(['.corepack.env', '.java-version', '.python-version', '.sdkmanrc', '.tool-versions', 'rb/.ruby-gemset', 'rb/.versions.conf', 'svc/.go-version', 'web/.env.yarn']);
  expect(why.join('\n')).toContain("a tool's version file (.java-version, .ruby-version, .go-version…) naming a version given as a path (21/../../../project/.jdk)");
  expect(why.join('\n')).toContain("corepack's variables (.corepack.env) naming a `COREPACK_HOME` variable; corepack would have run the package manager it points to");
  expect(why.join('\n')).toContain("SDKMAN!'s version file (.sdkmanrc) naming a version given as a path (../../../project/.jdk); SDKMAN! would have put what it names first on PATH");
});

test('control: the versions, aliases and settings these tools take stay', async () => {
  const { moved } = await around(() => {
    write('.java-version', 'temurin-21.0.1+12\n');
    write('.nvmrc', 'lts/iron\n');
    write('.python-version', '3.12.1/envs/web\n');
    write('.sdkmanrc', '# Enable auto-env\njava=21.0.2-tem\n');
    write('.corepack.env', 'COREPACK_ENABLE_DOWNLOAD_PROMPT=0\nCOREPACK_ENABLE_STRICT=0\n');
    write('.versions.conf', 'ruby=ruby-3.3.0\nruby-gemset=app\n');
    write('.tool-versions', 'node ref:release/1.x\n');
  });
  expect(moved).toEqual([]);
});

test('version bumps and ordinary settings stay where they are, and so does what was there before the command', async () => {
  before({ '.tool-versions': 'node 20.1.0\n', 'rust-toolchain.toml': '[toolchain]\nchannel = "1.80.0"\n', 'old/.tool-versions': `node path:${root}/x\n`, 'old/opencode.json': '{}' });
  const { moved } = await around(() => {
    write('.tool-versions', 'node 22.11.0\npython 3.12.7\n');
    write('rust-toolchain.toml', '[toolchain]\nchannel = "1.82.0"\ncomponents = ["clippy"]\n');
    write('pkg/mise.toml', '[tools]\nnode = "22"\n[tasks.test]\nrun = "npm test"\n');
    write('.yarnrc.yml', 'nodeLinker: node-modules\n');
    write('.npmrc', 'engine-strict=true\n@org:registry=https://npm.example.com\n');
    write('src/opencode.ts', 'export {};\n');
  });
  expect(moved).toEqual([]);
});

test('moved into place with a folder (its files keep their old times), or through a link that leads outside the project: set aside', async () => {
  const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-hosttools-out-')));
  try {
    writeFileSync(path.join(outside, 'tv'), 'node 20\n');
    before({ 'node_modules/x/.tool-versions': `node path:${root}/bin\n`, 'node_modules/x/index.js': '' });
    const { moved, why } = await around(() => {
      renameSync(path.join(root, 'node_modules', 'x'), path.join(root, 'vendored'));
      symlinkSync(path.join(outside, 'tv'), path.join(root, '.tool-versions'));
    });
    expect(moved).toEqual(['.tool-versions', 'vendored/.tool-versions']);
    expect(why.join('\n')).toContain('leading outside the directories the command may write');
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});
