// Permission-check latency: the whole checkPermission chain (blacklist, sandbox, rules, mode) in
// one process, with 200 rules spread over the user, project and local settings files, over a mix
// of realistic calls (reads and writes inside the project, single and compound bash commands,
// MCP tools). The harness is bundled from the repository sources with esbuild and run in a
// child, so the numbers are those of the code as it is now (no `npm run build` needed).
//
//   import { benchPermissions } from './scripts/bench/permissions.mjs';
//   const { markdown, results } = await benchPermissions({ runs: 200 });
//
// or directly: node scripts/bench/permissions.mjs [runs]
//
// Layers whose plugin folder does not exist yet are left out and named in the report.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TARGET_P50_MS = 0.2;

const LAYERS = [
  { name: 'blacklist', dir: 'plugins/permission-blacklist' },
  { name: 'sandbox', dir: 'plugins/permission-sandbox' },
  { name: 'rules', dir: 'plugins/permission-rules' },
  { name: 'mode', dir: 'plugins/permission-mode' },
];

/** 200 rules: Bash command globs, Read/Edit path globs, MCP names, over three files. */
function ruleFiles() {
  const layers = { user: { allow: [], ask: [], deny: [] }, project: { allow: [], ask: [], deny: [] }, local: { allow: [], ask: [], deny: [] } };
  const names = Object.keys(layers);
  const tools = ['npm', 'git', 'make', 'cargo', 'go', 'docker', 'kubectl', 'python', 'node', 'yarn'];
  const verbs = ['build', 'test', 'lint', 'run', 'status', 'log', 'diff', 'install', 'push', 'fetch'];
  let n = 0;
  const add = (layer, list, rule) => {
    layers[names[layer % 3]][list].push(rule);
    n++;
  };
  for (let i = 0; n < 90; i++) {
    const rule = i % 3 === 0 ? `Bash(${tools[i % 10]} ${verbs[(i >> 1) % 10]}:*)` : i % 3 === 1 ? `Bash(${tools[i % 10]} ${verbs[(i * 7) % 10]} *)` : `Bash(=${tools[i % 10]} ${verbs[(i * 3) % 10]} --flag-${i})`;
    add(i, i % 11 === 0 ? 'deny' : i % 13 === 0 ? 'ask' : 'allow', rule);
  }
  const dirs = ['src', 'lib', 'test', 'docs', 'scripts', 'config', 'assets', 'vendor', 'tools', 'examples'];
  for (let i = 0; n < 170; i++) {
    const dir = dirs[i % 10];
    const rule = i % 4 === 0 ? `Read(${dir}/**)` : i % 4 === 1 ? `Edit(${dir}/**/*.ts)` : i % 4 === 2 ? `Read(./${dir}/secret-${i}.txt)` : `Edit(/${dir}/gen-${i}/**)`;
    add(i, i % 4 === 2 ? 'deny' : 'allow', rule); // the secret-file rules deny
  }
  for (let i = 0; n < 188; i++) add(i, i % 5 === 0 ? 'deny' : 'allow', i % 2 ? `mcp__server${i % 6}__tool${i}` : `mcp__server${i % 6}__*`);
  // Rules real settings files have (the filler above rarely matches the call mix).
  layers.local.allow.push('Bash(npm test)', 'Bash(git status)', 'Bash(ls *)', 'Bash(grep *)', 'Bash(wc -l)', 'Bash(npm run build:*)');
  layers.project.ask.push('Bash(~^git\\s+push\\b)');
  layers.project.deny.push('Read(./.env)', 'Read(**/*.pem)', 'Bash(curl * | sh)', 'Bash(~^docker\\s+(rm|rmi)\\b)');
  n += 12;
  const yaml = (rules) =>
    `# benchmark rules\npermissions:\n${['allow', 'ask', 'deny'].map((list) => `  ${list}:\n${rules[list].map((r) => `    - ${JSON.stringify(r)}\n`).join('') || '    []\n'}`).join('')}`;
  return { files: Object.fromEntries(names.map((name) => [name, yaml(layers[name])])), count: n };
}

/** The call mix: kind → calls (tool, input). */
const MIX = {
  'read (inside project)': [
    ['read_file', { file_path: 'src/index.ts' }],
    ['read_file', { file_path: 'src/kernel/loop.ts' }],
    ['read_file', { file_path: 'README.md' }],
    ['read_file', { file_path: 'docs/guide/intro.md' }],
    ['read_file', { file_path: 'test/unit/a.test.ts' }],
    ['read_file', { file_path: '.env' }],
  ],
  'write/edit (inside project)': [
    ['edit_file', { file_path: 'src/index.ts' }],
    ['edit_file', { file_path: 'lib/util/strings.ts' }],
    ['write_file', { file_path: 'src/new-file.ts' }],
    ['write_file', { file_path: 'notes.md' }],
  ],
  'bash (single)': [
    ['bash', { command: 'npm test' }],
    ['bash', { command: 'git status' }],
    ['bash', { command: 'ls -la src' }],
    ['bash', { command: 'make build -j8' }],
    ['bash', { command: 'cat package.json' }],
  ],
  'bash (compound)': [
    ['bash', { command: 'git status && npm test' }],
    ['bash', { command: 'ls src | grep .ts | wc -l' }],
    ['bash', { command: 'npm run build && node dist/cli.js --version; echo done' }],
  ],
  'mcp': [
    ['mcp__server1__tool1', {}],
    ['mcp__server3__query', {}],
  ],
};

function harnessSource(present) {
  const imp = (name, file) => `import ${name} from ${JSON.stringify(path.join(ROOT, file))};`;
  const plugins = present.map((layer) => `permission_${layer.name}`);
  return `
import 'reflect-metadata';
import { Kernel } from ${JSON.stringify(path.join(ROOT, 'kernel/kernel.ts'))};
import { MemoryReporter } from ${JSON.stringify(path.join(ROOT, 'kernel/reporter.ts'))};
import { rawHooksOf } from ${JSON.stringify(path.join(ROOT, 'kernel/raw-hooks.ts'))};
import { memoryEnv, memoryModel } from ${JSON.stringify(path.join(ROOT, 'test/support/memory-provider.ts'))};
import { toolsPlugin } from ${JSON.stringify(path.join(ROOT, 'test/support/test-tools.ts'))};
import { toolCategory } from ${JSON.stringify(path.join(ROOT, 'types/tools.ts'))};
${present.map((layer) => imp(`permission_${layer.name}`, `${layer.dir}/index.ts`)).join('\n')}

const config = JSON.parse(process.env.MEWCODE_PERM_BENCH);
const tool = (name, kind, category) => ({
  name, description: name, inputSchema: { type: 'object' }, readOnly: category === 'read', category,
  permissionTarget: (input) => kind === 'command' ? { kind, command: String(input.command) } : kind === 'path' ? { kind, path: String(input.file_path) } : { kind: 'none' },
  async execute() { return { content: 'ok' }; },
});
const tools = toolsPlugin([
  tool('bash', 'command', 'exec'), tool('read_file', 'path', 'read'), tool('write_file', 'path', 'write'), tool('edit_file', 'path', 'write'),
  tool('mcp__server1__tool1', 'none', 'exec'), tool('mcp__server3__query', 'none', 'exec'),
]);

async function boot(plugins) {
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({ plugins: [memoryModel([]).plugin, tools, ...plugins], projectRoot: config.root, homeDir: config.home, env: memoryEnv, reporter });
  return { kernel, reporter };
}

function request(kernel, [toolName, input]) {
  const t = kernel.tools.get(toolName);
  return { toolName, tool: t, input, category: toolCategory(t), target: t.permissionTarget(input), mode: 'default', sessionId: kernel.session.sessionId, projectRoot: config.root };
}

async function measure(kernel) {
  const kinds = Object.entries(config.mix);
  const requests = kinds.map(([kind, calls]) => [kind, calls.map((c) => request(kernel, c))]);
  const first = performance.now();
  const firstCommand = requests.flatMap(([, reqs]) => reqs).find((r) => r.target.kind === 'command');
  await rawHooksOf(kernel).checkPermission.promise(firstCommand); // the first command loads the shell parser
  const coldMs = performance.now() - first;
  for (let i = 0; i < config.warmup; i++) for (const [, reqs] of requests) for (const r of reqs) await rawHooksOf(kernel).checkPermission.promise(r);
  const samples = Object.fromEntries(kinds.map(([kind]) => [kind, []]));
  const verdicts = {};
  for (let i = 0; i < config.runs; i++) {
    for (const [kind, reqs] of requests) {
      for (const r of reqs) {
        const started = performance.now();
        const verdict = await rawHooksOf(kernel).checkPermission.promise(r);
        samples[kind].push(performance.now() - started);
        if (i === 0) verdicts[r.target.command ?? r.target.path ?? r.toolName] = verdict ? verdict.decision + ' by ' + verdict.layer : 'none';
      }
    }
  }
  return { coldMs, samples, verdicts };
}

const full = await boot([${plugins.join(', ')}]);
const rulesOnly = await boot([permission_rules, permission_mode]);
const result = {
  warnings: full.reporter.warnings,
  full: await measure(full.kernel),
  rulesOnly: await measure(rulesOnly.kernel),
};
process.stdout.write(JSON.stringify(result));
`;
}

function percentile(samples, p) {
  const values = [...samples].sort((a, b) => a - b);
  if (values.length === 0) return NaN;
  return values[Math.min(values.length, Math.max(1, Math.ceil((p / 100) * values.length))) - 1];
}

const fmt = (v) => (Number.isFinite(v) ? `${v < 0.1 ? v.toFixed(3) : v.toFixed(2)} ms` : 'n/a');

export async function benchPermissions({ runs = 200, warmup = 20 } = {}) {
  const { build } = await import('esbuild');
  const present = LAYERS.filter((layer) => existsSync(path.join(ROOT, layer.dir, 'index.ts')));
  const missing = LAYERS.filter((layer) => !present.includes(layer));
  const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-perm-bench-'));
  try {
    const root = path.join(work, 'project');
    const home = path.join(work, 'home');
    for (const dir of [path.join(root, '.mewcode'), path.join(root, 'src', 'kernel'), path.join(home, '.mewcode')]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(root, 'src', 'index.ts'), 'export {};\n');
    const { files, count } = ruleFiles();
    writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), files.user);
    writeFileSync(path.join(root, '.mewcode', 'settings.yaml'), files.project);
    writeFileSync(path.join(root, '.mewcode', 'settings.local.yaml'), files.local);

    // The bundle resolves web-tree-sitter (external) and the grammar's .wasm through this link.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'), 'dir');
    const entry = path.join(work, 'harness.ts');
    writeFileSync(entry, harnessSource(present));
    const outfile = path.join(work, 'harness.mjs');
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
    // jsonc-parser's "main" is a UMD build whose relative requires esbuild cannot follow.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['web-tree-sitter'],
      logLevel: 'error',
      nodePaths: [path.join(ROOT, 'node_modules')],
      banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
    });
    const child = spawnSync(process.execPath, [outfile], {
      cwd: work,
      env: { ...process.env, NODE_OPTIONS: '', MEWCODE_PERM_BENCH: JSON.stringify({ root, home, runs, warmup, mix: MIX }) },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (child.status !== 0) throw new Error(`permission bench harness failed (exit ${child.status}):\n${child.stderr}`);
    const raw = JSON.parse(child.stdout);

    const summarize = (measurement) => {
      const all = Object.values(measurement.samples).flat();
      return {
        coldMs: measurement.coldMs,
        all: { n: all.length, p50: percentile(all, 50), p99: percentile(all, 99) },
        kinds: Object.fromEntries(Object.entries(measurement.samples).map(([kind, s]) => [kind, { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99) }])),
      };
    };
    const results = { rules: count, layers: present.map((l) => l.name), missing: missing.map((l) => l.name), full: summarize(raw.full), rulesOnly: summarize(raw.rulesOnly), verdicts: raw.full.verdicts, warnings: raw.warnings };

    const chain = present.map((l) => l.name).join(' → ');
    const lines = [
      '### Permission checks',
      '',
      `checkPermission latency, in process, ${count} rules over user/project/local settings files; ` +
        `${runs} passes over ${Object.values(MIX).flat().length} calls after ${warmup} warm-up passes. Target: p50 ≤ ${TARGET_P50_MS} ms.`,
      '',
      `| calls | full chain (${chain}) p50 | p99 | rules + mode only p50 | p99 |`,
      '|---|---|---|---|---|',
      ...Object.keys(MIX).map((kind) => {
        const f = results.full.kinds[kind];
        const r = results.rulesOnly.kinds[kind];
        return `| ${kind} | ${fmt(f.p50)} | ${fmt(f.p99)} | ${fmt(r.p50)} | ${fmt(r.p99)} |`;
      }),
      `| **all** (${results.full.all.n}) | **${fmt(results.full.all.p50)}** | ${fmt(results.full.all.p99)} | ${fmt(results.rulesOnly.all.p50)} | ${fmt(results.rulesOnly.all.p99)} |`,
      '',
      `First command check of a process (loads the shell parser's WebAssembly): ${fmt(results.full.coldMs)}. ` +
        `p50 ${results.full.all.p50 <= TARGET_P50_MS ? 'meets' : 'misses'} the target.`,
    ];
    if (missing.length > 0) lines.push('', `Not measured (plugin not present yet): ${missing.map((l) => l.name).join(', ')}.`);
    if (raw.warnings.length > 0) lines.push('', `Warnings while loading: ${raw.warnings.length} (first: ${raw.warnings[0]})`);
    return { markdown: `${lines.join('\n')}\n`, results };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = process.argv[2] ? Number.parseInt(process.argv[2], 10) : undefined;
  const { markdown, results } = await benchPermissions(runs ? { runs } : {});
  process.stdout.write(markdown);
  if (process.env.MEWCODE_BENCH_VERBOSE) process.stderr.write(`${JSON.stringify(results.verdicts, null, 2)}\n`);
}
