// What a `bash` call costs the user: a `-p` run whose model calls bash (`echo ping`, sandboxed as
// by default) in each of several turns, one call per turn, in a real git project. Each turn's gap
// is response n's last byte → request n+1 fully received (stamped in this process): the tool
// included. Its reference is the command alone, `bash -c 'echo ping'` started by this process in
// the same rounds; the difference is what MewCode adds (checks, sandbox, bookkeeping). The first
// call of a process is shown apart from the later ones, with the model answering at once (nothing
// of the process is warm) and with a hosted model's first-token wait (the idle warm-up has run).
// Targets are reported, never asserted. `--vendor DIR` copies DIR into the project as a git-ignored
// `vendor/` first (the tools suite gives the project's own node_modules: ≈ 2,500 directories), as a
// repository with vendored code, a virtualenv or build output holds: the sandbox's sweep after each
// command walks every directory of the project but node_modules. `--home-dirs N` fills the HOME
// with N tools' directories (and the folders above them) as a developer's holds them (settings
// under .config and .local/share, dot-directories, a few files each, some secret-named), which the
// sandbox scans for secret names. `--command CMD` runs CMD instead of `echo ping` in every call and
// as the reference (e.g. `git commit --allow-empty -q -m x`: each call then moves a ref, as a
// session's commits, checkouts and fetches do, and the sandbox's checks after it see that).
// `--dev-home` puts the HOME outside /tmp, as a user's is (inside the sandbox /tmp is private, so
// a home there is not shown at all), with the top-level entries a developer's home holds
// (DEV_HOME_ENTRIES: dotfiles and tools' folders, several of which the sandbox hides: startup
// files, histories, git's credentials). `--unsandboxed` adds, for each build, the same runs with
// `sandbox: false` in the home's settings (interleaved): what the OS sandbox and its checks add
// apart from the rest of a bash call.
//
//   node scripts/bench/bash-turns.mjs [--runs N] [--turns N] [--vendor DIR] [--home-dirs N] [--dev-home] [--command CMD] [--unsandboxed] [--cli PATH …]   prints a Markdown section to stdout
//   (several --cli: builds compared, interleaved, each against the first)
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { CLI, NODE, PROJECT_FILES, childEnv, makeGitProject, makeTempDir, providerEnv, removeDir, runChild, startTimedServer } from './harness.mjs';
import { MODEL_PACING } from './session.mjs';
import { median, ms, ratio } from './stats.mjs';

const ECHO = 'echo ping';
/** A hosted model's usual wait for its first token (0.3–2 s); the later events come as in d′. */
const HOSTED = { ...MODEL_PACING, delayMs: 1000 };
const TARGET_FIRST_MS = 40;

/** One `-p` run of `turns` bash turns; returns each turn's gap. */
async function bashTurnGaps({ cli, home, project, protocol, turns, pacing, command }) {
  const script = [];
  for (let i = 0; i < turns; i++) script.push({ text: 'Next.', toolCalls: [{ id: `b${i}`, name: 'bash', input: { command } }], ...pacing });
  script.push({ text: 'Done.', ...pacing });
  const { server, timings } = await startTimedServer(script);
  try {
    const env = childEnv(home, providerEnv(protocol, server.url));
    const r = await runChild(NODE, [cli, '-p', 'Run it.', '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { cwd: project, env });
    let result;
    try {
      result = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '');
    } catch {
      result = undefined;
    }
    if (r.code !== 0 || !result || result.is_error || server.requests.length !== turns + 1) {
      throw new Error(`bash-turns: the session failed (exit ${r.code}, ${server.requests.length} requests):\n${r.stderr}\n${r.stdout}`);
    }
    const gaps = [];
    for (let k = 0; k < turns; k++) gaps.push(timings[k + 1].bodyEndAt - timings[k].finishedAt);
    return gaps;
  } finally {
    await server.close();
  }
}

/** The command alone, as the tool would start it (spawn → close), from this process (in `cwd`). */
export function commandAlone(command = ECHO, cwd = process.cwd()) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'ignore'], cwd });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

/** `count` tools' directories in `home` as a developer's home holds them (the header says how); returns the home's directories, those above them included. */
function fillHome(home, count) {
  const places = ['.config', path.join('.local', 'share'), ''];
  for (let i = 0; i < count; i++) {
    // Tools' directories three levels deep, spread over the three places, a few files in each.
    const tool = `${places[i % 3] ? '' : '.'}tool${Math.floor(i / 9)}`;
    const dir = path.join(home, places[i % 3], tool, `part${Math.floor(i / 3) % 3}`, `sub${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'settings.json'), '{}\n');
    writeFileSync(path.join(dir, 'cache.db'), 'x');
    if (i % 25 === 0) writeFileSync(path.join(dir, 'history'), 'ls\n');
    if (i % 40 === 0) writeFileSync(path.join(dir, 'token.json'), '{"token":"fake"}\n');
  }
  return countDirs(home);
}

/** A developer's home's top level: folders (`/`) and files. */
const DEV_HOME_ENTRIES = [
  '.bashrc', '.profile', '.bash_logout', '.gitconfig', '.zsh_history', '.git-credentials', '.viminfo', '.lesshst', '.wget-hsts', '.python_history',
  '.node_repl_history', '.selected_editor', '.sudo_as_admin_successful', '.editorconfig', '.tmux.conf', '.inputrc',
  '.cache/', '.config/', '.local/', '.npm/', '.cargo/', '.rustup/', '.nvm/', '.pyenv/', '.m2/', '.gradle/', '.vscode-server/', '.docker/',
  '.ipython/', '.jupyter/', '.vim/', 'Documents/', 'Downloads/', 'Desktop/', 'Pictures/', 'Music/', 'Videos/', 'Templates/', 'Public/', 'projects/',
];

/** Creates DEV_HOME_ENTRIES in `home`. */
function fillDevHome(home) {
  for (const entry of DEV_HOME_ENTRIES) {
    if (entry.endsWith('/')) mkdirSync(path.join(home, entry), { recursive: true });
    else writeFileSync(path.join(home, entry), entry === '.git-credentials' ? 'https://u:fake@example.com\n' : '\n');
  }
}

/** Directories of `dir`, `.git` left out. */
function countDirs(dir) {
  let count = 1;
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory() && entry.name !== '.git') count += countDirs(path.join(dir, entry.name));
  return count;
}

export async function benchBashTurns({ runs = 5, turns = 6, warmup = 1, protocol = 'anthropic', clis = [CLI], vendor, homeDirs = 0, devHome = false, command = ECHO, unsandboxed = false, progress = () => {} } = {}) {
  const project = makeGitProject(makeTempDir('mewcode-bench-bash-'));
  if (vendor) {
    const copied = spawnSync('cp', ['-r', vendor, path.join(project, 'vendor')], { encoding: 'utf8' });
    if (copied.status !== 0) {
      removeDir(project);
      throw new Error(`bash-turns: cp -r ${vendor} failed: ${copied.stderr}`);
    }
    appendFileSync(path.join(project, '.gitignore'), 'vendor/\n');
  }
  const directories = countDirs(project);
  const home = devHome && existsSync('/var/tmp') ? mkdtempSync(path.join('/var/tmp', 'mewcode-bench-home-')) : makeTempDir('mewcode-bench-home-');
  if (devHome) fillDevHome(home);
  const homeDirectories = homeDirs > 0 ? fillHome(home, homeDirs) : 0;
  // The unsandboxed variant: a copy of the home whose settings turn the sandbox off.
  const homeOff = unsandboxed ? `${home}-off` : undefined;
  if (homeOff) {
    spawnSync('cp', ['-a', home, homeOff]);
    mkdirSync(path.join(homeOff, '.mewcode'), { recursive: true });
    writeFileSync(path.join(homeOff, '.mewcode', 'settings.yaml'), 'sandbox: false\n');
  }
  const variants = clis.flatMap((cli) => [{ key: cli, cli, home, name: cli }, ...(homeOff ? [{ key: `${cli} (sandbox: false)`, cli, home: homeOff, name: cli, off: true }] : [])]);
  const modes = { atOnce: undefined, hosted: HOSTED };
  const gaps = new Map(variants.map((v) => [v.key, { atOnce: { first: [], later: [] }, hosted: { first: [], later: [] } }]));
  const alone = [];
  try {
    for (let i = -warmup; i < runs; i++) {
      progress(`bash turns: ${Math.max(0, i + 1)}/${runs}`);
      for (const [name, pacing] of Object.entries(modes)) {
        for (const variant of i % 2 === 0 ? variants : [...variants].reverse()) {
          const run = await bashTurnGaps({ cli: variant.cli, home: variant.home, project, protocol, turns, pacing, command });
          if (i < 0) continue;
          gaps.get(variant.key)[name].first.push(run[0]);
          gaps.get(variant.key)[name].later.push(...run.slice(1));
        }
        if (i >= 0) alone.push(await commandAlone(command, project));
      }
    }
  } finally {
    removeDir(project);
    removeDir(home);
    if (homeOff) removeDir(homeOff);
  }
  const commandMs = median(alone);
  const label = (v) => (variants.length > 1 ? ` | ${path.relative(process.cwd(), v.cli) || v.cli}${v.off ? ' (`sandbox: false`)' : ''}` : '');
  const rows = [];
  const calls = [
    ['first call of the process, whole response at once', 'atOnce', 'first', TARGET_FIRST_MS],
    [`first call of the process, first token after ${HOSTED.delayMs} ms`, 'hosted', 'first', TARGET_FIRST_MS],
    ['later calls, whole response at once', 'atOnce', 'later'],
    [`later calls, first token after ${HOSTED.delayMs} ms`, 'hosted', 'later'],
  ];
  for (const [text, mode, which, target] of calls) {
    const reference = median(gaps.get(variants[0].key)[mode][which]);
    for (const variant of variants) {
      const samples = gaps.get(variant.key)[mode][which];
      const gap = median(samples);
      const over = gap - commandMs;
      const verdict = target === undefined ? '—' : `≤ ${target} ms: ${over <= target ? 'met' : '**not met**'}`;
      const versus = variants.length > 1 ? ` | ${ratio(gap, reference)}` : '';
      rows.push(`| ${text}${label(variant)} | ${samples.length} | ${ms(gap)} | ${ms(over)}${versus} | ${verdict} |`);
    }
  }
  const builds = variants.length > 1;
  const markdown = [
    `### bash calls, one per turn${vendor ? `, in a project of ${directories.toLocaleString('en-US')} directories` : ''} (${protocol}, ${runs} runs of ${turns} turns per mode${builds ? ' and build, interleaved' : ''})`,
    '',
    `The gap the user waits in a bash turn (response n → request n+1), the tool included, and what it adds over the command alone (\`bash -c '${command}'\` from the bench's process, in the project, same rounds: ${ms(commandMs)}). Sandboxed with bubblewrap (the default where it runs)${homeOff ? '; the `sandbox: false` rows run the same calls with the OS sandbox turned off in the home\'s settings' : ''}. The project: a git repository of ${PROJECT_FILES} source files${vendor ? ` and a git-ignored \`vendor/\` (a copy of ${path.basename(vendor)})` : ''}, ${directories.toLocaleString('en-US')} directories.${homeDirectories > 0 ? ` The home: ${homeDirectories.toLocaleString('en-US')} directories (\`--home-dirs\`).` : ''}${devHome ? ` The home outside /tmp with a developer's ${DEV_HOME_ENTRIES.length} top-level entries (\`--dev-home\`).` : ''}`,
    '',
    `| call${builds ? ' | build' : ''} | gaps | gap median | over the command alone${builds ? ' | vs the first row' : ''} | target |`,
    `| --- |${builds ? ' --- |' : ''} --- | --- | ---${builds ? ' | ---' : ''} | --- |`,
    ...rows,
  ].join('\n');
  return { markdown, gaps, command: commandMs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, turns: { type: 'string', default: '6' }, vendor: { type: 'string' }, 'home-dirs': { type: 'string', default: '0' }, 'dev-home': { type: 'boolean', default: false }, command: { type: 'string', default: ECHO }, unsandboxed: { type: 'boolean', default: false }, cli: { type: 'string', multiple: true } } });
  const clis = (values.cli ?? [CLI]).map((cli) => path.resolve(cli));
  const vendor = values.vendor === undefined ? undefined : path.resolve(values.vendor);
  const { markdown } = await benchBashTurns({ runs: Number(values.runs), turns: Number(values.turns), clis, vendor, homeDirs: Number(values['home-dirs']), devHome: values['dev-home'], command: values.command, unsandboxed: values.unsandboxed, progress: (t) => process.stderr.write(`${t}\n`) });
  process.stdout.write(`${markdown}\n`);
}
