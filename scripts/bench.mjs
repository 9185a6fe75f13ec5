#!/usr/bin/env node
// `npm run bench`: start-up, first-request latency, two-turn session time and memory, turn gap and
// request sizes of the built CLI against the in-process scripted model server. Prints a Markdown
// section to stdout (progress goes to stderr); `--write` splices it into BENCHMARKS.md.
//
//   node scripts/bench.mjs [--write] [--protocol anthropic|openai|both] [--runs N] [--quick] [--keep-node-env]
//
// Children run with a temporary HOME, no provider variables but the scripted server's, and without
// NODE_EXTRA_CA_CERTS / NODE_OPTIONS (machine settings that slow every Node start; --keep-node-env keeps them).
//
// Targets are reported, never asserted: the exit code is non-zero only when a run fails or the
// system prompt / tools are not byte-identical between turns.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, gnuTimePath, setKeepNodeEnv, strippedNodeVars } from './bench/harness.mjs';
import { measureVersion } from './bench/startup.mjs';
import { measureFirstRequest } from './bench/first-request.mjs';
import { measureInteractiveStart, scriptCommand } from './bench/interactive-start.mjs';
import { MODEL_PACING, measureSession } from './bench/session.mjs';
import { measureLongSession } from './bench/long-session.mjs';
import { benchSessions } from './bench/sessions.mjs';
import { benchLayerOne } from './bench/layer-one.mjs';
import { section, writeSection } from './bench/report.mjs';
import { benchReadFile } from './bench/tool-read-file.mjs';
import { benchBash } from './bench/tool-bash.mjs';
import { benchSearch } from './bench/tool-search.mjs';
import { benchParallelTools } from './bench/parallel-tools.mjs';
import { benchManyCalls } from './bench/many-calls.mjs';
import { benchBashTurns } from './bench/bash-turns.mjs';
import { benchPermissions } from './bench/permissions.mjs';
import { benchSandbox } from './bench/sandbox.mjs';
import { benchTrust } from './bench/trust.mjs';
import { benchMcp } from './bench/mcp.mjs';
import { benchHooks } from './bench/hooks.mjs';
import { benchSkills } from './bench/skills.mjs';
import { benchCompaction } from './bench/compaction.mjs';
import { benchTui, tuiSection } from './bench/tui.mjs';

const { values } = parseArgs({
  options: {
    write: { type: 'boolean', default: false },
    protocol: { type: 'string', default: 'both' },
    runs: { type: 'string' },
    quick: { type: 'boolean', default: false },
    // One run of everything at tiny sizes: proves every suite still builds and prints its table (npm test runs it).
    smoke: { type: 'boolean', default: false },
    suite: { type: 'string', default: 'all' },
    'keep-node-env': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write('usage: node scripts/bench.mjs [--write] [--suite all|kernel|tools|permissions|safety|sessions|mcp|hooks|skills|compaction|tui] [--protocol anthropic|openai|both] [--runs N] [--quick | --smoke] [--keep-node-env]\n');
  process.exit(0);
}
const SUITES = ['all', 'kernel', 'tools', 'permissions', 'safety', 'sessions', 'mcp', 'hooks', 'skills', 'compaction', 'tui'];
if (!SUITES.includes(values.suite)) {
  process.stderr.write(`bench: --suite must be one of ${SUITES.join(', ')} (got "${values.suite}")\n`);
  process.exit(2);
}
const wants = (suite) => values.suite === 'all' || values.suite === suite;
const protocols = values.protocol === 'both' ? ['anthropic', 'openai'] : [values.protocol];
if (!protocols.every((p) => p === 'anthropic' || p === 'openai')) {
  process.stderr.write(`bench: --protocol must be anthropic, openai or both (got "${values.protocol}")\n`);
  process.exit(2);
}
for (const file of ['dist/mewcode.js', 'dist/scripted-server-lib.js']) {
  if (!existsSync(path.join(ROOT, file))) {
    process.stderr.write(`bench: ${file} is missing; run \`npm run build\` first (npm run bench does)\n`);
    process.exit(2);
  }
}

const base = values.runs === undefined ? undefined : Number.parseInt(values.runs, 10);
if (base !== undefined && !(base >= 3)) {
  process.stderr.write(`bench: --runs must be a whole number ≥ 3 (got "${values.runs}")\n`);
  process.exit(2);
}
const smoke = values.smoke;
if (smoke && values.write) {
  process.stderr.write('bench: --smoke measures nothing worth keeping; it cannot --write\n');
  process.exit(2);
}
const runs = smoke
  ? { version: 1, firstRequest: 1, session: 1, longSession: 1, warmup: 0 }
  : values.quick
  ? { version: 5, firstRequest: 3, session: 3, longSession: 1, warmup: 1 }
  : { version: base ?? 30, firstRequest: base ?? 20, session: base ?? 15, longSession: 3, warmup: 2 };

const isTTY = process.stderr.isTTY;
let lastProgress = '';
const progress = (text) => {
  if (isTTY) process.stderr.write(`\r\x1b[2K${text}`);
  else if (text.split(' ').slice(0, -1).join(' ') !== lastProgress) process.stderr.write(`${text.split(' ').slice(0, -1).join(' ')}…\n`);
  lastProgress = text.split(' ').slice(0, -1).join(' ');
};

setKeepNodeEnv(values['keep-node-env']);
const started = performance.now();
const results = { date: new Date().toISOString().slice(0, 10), runs, version: undefined, firstRequest: {}, session: {}, pacedSession: {}, bashFirst: {}, pacing: MODEL_PACING, longSession: {}, compactJson: true, strippedNodeVars: strippedNodeVars() };
let failed = false;
const sections = [];
try {
  if (wants('kernel')) {
    if (!gnuTimePath()) process.stderr.write('bench: GNU /usr/bin/time not found; peak RSS comes from the plugin\'s dispose() only\n');
    results.version = await measureVersion({ runs: runs.version, warmup: runs.warmup, progress });
    for (const protocol of protocols) {
      results.firstRequest[protocol] = await measureFirstRequest({ protocol, runs: runs.firstRequest, warmup: runs.warmup, progress });
    }
    // The smoke run leaves out (i): it kills a terminal UI mid-start in a shared project, which a
    // loaded machine (the whole suite beside it) makes take longer than the row's time-out.
    if (smoke) process.stderr.write('bench: --smoke: the interactive start (i) is measured by npm run bench only\n');
    else if (scriptCommand()) results.interactive = await measureInteractiveStart({ runs: runs.firstRequest, warmup: runs.warmup, progress });
    else process.stderr.write('bench: util-linux script(1) not found; the interactive start (i) is not measured\n');
    for (const protocol of protocols) {
      const session = await measureSession({ protocol, runs: runs.session, warmup: runs.warmup, progress });
      results.session[protocol] = session;
      if (!session.compactJson) results.compactJson = false;
      if (!session.identical) {
        failed = true;
        process.stderr.write(`\nbench: ${protocol}: the system prompt or tools changed between turn 1 and 2:\n${[...new Set(session.mismatches)].slice(0, 3).join('\n')}\n`);
      }
    }
    for (const protocol of protocols) {
      results.pacedSession[protocol] = await measureSession({ protocol, runs: runs.session, warmup: runs.warmup, progress, pacing: MODEL_PACING });
    }
    for (const protocol of protocols) {
      results.bashFirst[protocol] = await measureSession({ protocol, runs: runs.session, warmup: runs.warmup, progress, pacing: MODEL_PACING, tool: 'bash' });
    }
    for (const protocol of protocols) {
      results.longSession[protocol] = await measureLongSession({ protocol, runs: runs.longSession, progress });
    }
    sections.push({ name: 'kernel', text: section(results) });
  }
  if (wants('tools')) {
    const toolRuns = smoke ? 1 : values.quick ? 3 : Math.max(5, Math.min(base ?? 10, 10));
    process.stderr.write('bench: tools: read_file on a 1 GiB file…\n');
    const read = await benchReadFile({ runs: toolRuns, ...(smoke ? { size: 1024 * 1024 } : {}) });
    process.stderr.write('bench: tools: bash with 100 MB of output…\n');
    const bash = await benchBash({ runs: smoke ? 1 : values.quick ? 3 : 5, ...(smoke ? { bytes: 1_000_000 } : {}) });
    process.stderr.write('bench: tools: grep and glob on a ≥ 20,000-file tree against ripgrep…\n');
    const search = await benchSearch({ runs: smoke ? 1 : values.quick ? 3 : 5, ...(smoke ? { warmup: 0, minFiles: 100, source: path.join(ROOT, 'node_modules', 'yaml') } : {}) });
    process.stderr.write('bench: tools: several calls in one turn, concurrent against sequential…\n');
    const parallel = await benchParallelTools({ runs: smoke ? 1 : values.quick ? 3 : 7, warmup: smoke ? 0 : 1, protocol: protocols[0], progress });
    process.stderr.write('bench: tools: bash calls, one per turn (first and later calls)…\n');
    const turnsRun = { runs: smoke ? 1 : values.quick ? 3 : 5, turns: smoke ? 2 : 6, warmup: smoke ? 0 : 1, protocol: protocols[0], progress };
    // The smoke run gives it a small developer's home too, so `--home-dirs` keeps building. The
    // `sandbox: false` rows show what the OS sandbox and its checks add apart from the rest.
    const bashTurns = await benchBashTurns({ ...turnsRun, unsandboxed: true, ...(smoke ? { homeDirs: 12 } : {}) });
    // The same in a project whose tree the sandbox's sweep walks after each command: a git-ignored vendor/.
    const bashTurnsLarge = await benchBashTurns({ ...turnsRun, vendor: path.join(ROOT, 'node_modules', ...(smoke ? ['yaml'] : [])) });
    process.stderr.write('bench: tools: 500 real tool calls in one run (RSS, gap trend)…\n');
    const many = await benchManyCalls({ calls: smoke ? 20 : values.quick ? 250 : 500, protocol: protocols[0], progress });
    sections.push({
      name: 'tools',
      text: ['## Tools: read_file, bash, grep, glob', '', `Reproduce: \`npm run bench -- --suite tools\` (measured ${results.date}).`, '', read.markdown, '', bash.markdown, '', search.markdown, '', parallel.markdown, '', bashTurns.markdown, '', bashTurnsLarge.markdown, '', many.markdown].join('\n'),
    });
  }
  if (wants('permissions')) {
    process.stderr.write('bench: permissions: checkPermission with 200 rules…\n');
    const permissions = await benchPermissions(smoke ? { runs: 3, warmup: 1 } : values.quick ? { runs: 50, warmup: 10 } : {});
    sections.push({ name: 'permissions', text: ['## Permissions: checkPermission', '', `Reproduce: \`npm run bench -- --suite permissions\` (measured ${results.date}).`, '', permissions.markdown].join('\n') });
  }
  if (wants('safety')) {
    process.stderr.write('bench: safety: the OS sandbox per bash call, the trust check at start-up…\n');
    const sandbox = await benchSandbox({ runs: smoke ? 2 : values.quick ? 10 : 50 });
    const trust = await benchTrust(smoke ? { runs: 3, warmup: 1 } : values.quick ? { runs: 50, warmup: 10 } : {});
    sections.push({
      name: 'safety',
      text: ['## Safety: OS sandbox and workspace trust', '', `Reproduce: \`npm run bench -- --suite safety\` (measured ${results.date}).`, '', sandbox.markdown.replace(/^## /m, '### '), '', trust.markdown].join('\n'),
    });
  }
  if (wants('sessions')) {
    process.stderr.write('bench: sessions: resuming a 100,000-message session, fsynced appends…\n');
    const sessionsBench = await benchSessions({ runs: smoke ? 1 : values.quick ? 2 : 5, ...(smoke ? { messages: 1000 } : {}) });
    const layerOne = await benchLayerOne();
    sections.push({ name: 'sessions', text: ['## Sessions: resume, append, compaction layer 1', '', `Reproduce: \`npm run bench -- --suite sessions\` (measured ${results.date}).`, '', sessionsBench.markdown, '', layerOne.markdown].join('\n') });
  }
  if (wants('mcp')) {
    process.stderr.write('bench: mcp: first request with MCP servers, request bytes with 50 MCP tools…\n');
    const mcp = await benchMcp({ runs: smoke ? 1 : values.quick ? 3 : 10, warmup: smoke ? 0 : 1, progress });
    sections.push({ name: 'mcp', text: ['## MCP: start-up with servers, request bytes', '', `Reproduce: \`npm run bench -- --suite mcp\` (measured ${results.date}).`, '', mcp.markdown].join('\n') });
  }
  if (wants('hooks')) {
    process.stderr.write('bench: hooks: PreToolUse cost per call…\n');
    const hooks = await benchHooks(smoke ? { runs: 3, warmup: 1 } : { runs: values.quick ? 30 : 200 });
    sections.push({ name: 'hooks', text: ['## Hooks: PreToolUse cost per call', '', `Reproduce: \`npm run bench -- --suite hooks\` (measured ${results.date}).`, '', hooks.markdown].join('\n') });
  }
  if (wants('skills')) {
    process.stderr.write('bench: skills: catalog load, boot and stable-prompt bytes with 200 skills…\n');
    const skillsBench = await benchSkills(smoke ? { runs: 1, warmup: 0 } : { runs: values.quick ? 5 : 20 });
    sections.push({ name: 'skills', text: ['## Skills: a catalog of 200', '', `Reproduce: \`npm run bench -- --suite skills\` (measured ${results.date}).`, '', skillsBench.markdown].join('\n') });
  }
  if (wants('compaction')) {
    process.stderr.write('bench: compaction: peak RSS over a 2,000-tool-call session that keeps compacting…\n');
    const compaction = await benchCompaction({ prompts: smoke ? 2 : values.quick ? 20 : undefined, progress });
    sections.push({ name: 'compaction', text: ['## Compaction: memory over a 2,000-tool-call session', '', `Reproduce: \`npm run bench -- --suite compaction\` (measured ${results.date}).`, '', compaction.markdown].join('\n') });
  }
  if (wants('tui')) {
    process.stderr.write('bench: tui: bytes and frames the terminal UI writes…\n');
    sections.push({ name: 'tui', text: tuiSection(await benchTui()) });
  }
} catch (error) {
  if (isTTY) process.stderr.write('\n');
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
if (isTTY) process.stderr.write('\r\x1b[2K');
process.stderr.write(`bench: done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

for (const { name, text } of sections) {
  process.stdout.write(`${text}\n\n`);
  if (values.write) process.stderr.write(`bench: BENCHMARKS.md (${name}) ${writeSection(path.join(ROOT, 'BENCHMARKS.md'), text, name)}\n`);
}
if (failed) {
  process.stderr.write('bench: identical: no (see above)\n');
  process.exit(1);
}
