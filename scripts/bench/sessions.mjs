// Sessions (issue 10): resuming a 100,000-message session, against the floor of reading the same
// file and parsing its lines in a bare Node process; and what an fsynced append costs here.
//
//   node scripts/bench/sessions.mjs [runs]     (needs `npm run build`)
import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile } from './stats.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const MESSAGES = 100_000;
export const TARGET_MS = 1000;
const ID = '20261201-000000-be11';

/** A realistic transcript: one prompt, then tool calls and results with ~200-character outputs. */
function writeTranscript(project, messages) {
  const dir = path.join(project, '.mewcode', 'sessions', ID);
  mkdirSync(dir, { recursive: true });
  const time = new Date().toISOString();
  const lines = [JSON.stringify({ v: 1, type: 'session', id: ID, agent: 'main', time, cwd: project })];
  const record = (message) => lines.push(JSON.stringify({ v: 1, type: 'message', time, message }));
  record({ role: 'user', content: [{ type: 'text', text: 'Refactor the parser module and keep the tests green.' }] });
  for (let i = 1; lines.length - 1 < messages; i++) {
    record({ role: 'assistant', content: [{ type: 'text', text: `Step ${i}: reading the next file.` }], toolCalls: [{ id: `toolu_${i}`, name: 'read_file', input: JSON.stringify({ path: `src/parser/part-${i % 97}.ts` }) }] });
    record({ role: 'tool', results: [{ toolCallId: `toolu_${i}`, isError: false, content: `export function part${i}(input: string): string {\n  return input.trim().replace(/\\s+/g, ' ') + ${JSON.stringify('x'.repeat(120))};\n}\n` }] });
  }
  record({ role: 'assistant', content: [{ type: 'text', text: 'Done for now.' }], toolCalls: [] });
  const file = path.join(dir, 'conversation.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const FLOOR = "const t=performance.now();const lines=require('fs').readFileSync(process.argv[1],'utf8').split('\\n');let n=0;for(const l of lines){if(l)JSON.parse(l),n++}process.stdout.write(JSON.stringify({ms:performance.now()-t,n,rssKiB:process.resourceUsage().maxRSS}))";

/** `messages`: the transcript's length (the smoke run's is short); default MESSAGES. */
export async function benchSessions({ runs = 5, messages = MESSAGES } = {}) {
  const project = mkdtempSync(path.join(os.tmpdir(), 'mewcode-bench-sessions-'));
  const home = mkdtempSync(path.join(os.tmpdir(), 'mewcode-bench-home-'));
  try {
    const file = writeTranscript(project, messages);
    // As if started on this machine (only such sessions are resumed).
    mkdirSync(path.join(home, '.mewcode'), { recursive: true });
    writeFileSync(path.join(home, '.mewcode', 'sessions.jsonl'), `${JSON.stringify({ v: 1, root: realpathSync(project), id: ID })}\n`);
    const env = { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'bench-key', MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'bench-model' };
    const ours = [];
    const floor = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, [path.join(HERE, 'resume-driver.mjs'), ID], { cwd: project, env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`resume driver failed: ${r.stderr}`);
      const result = JSON.parse(r.stdout.trim());
      if (result.messages < messages || result.skipped !== 0) throw new Error(`resume loaded ${result.messages} messages, skipped ${result.skipped}`);
      ours.push(result);
      const f = spawnSync(process.execPath, ['-e', FLOOR, file], { encoding: 'utf8' });
      floor.push(JSON.parse(f.stdout));
    }
    const appends = measureAppends(project);
    const m = (rows, key) => median(rows.map((row) => row[key]));
    const p90 = (rows, key) => percentile(rows.map((row) => row[key]), 90);
    const ms = (v) => `${v.toFixed(0)} ms`;
    const mib = (kib) => `${(kib / 1024).toFixed(0)} MiB`;
    const total = m(ours, 'totalMs');
    const markdown = [
      `| Measurement | Median | p90 | Reference (median, same run) | Ratio | Target | Status |`,
      `| --- | --- | --- | --- | --- | --- | --- |`,
      `| resume a ${messages.toLocaleString('en-US')}-message session (${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB): load + \`resumeSession\` | ${ms(total)} | ${ms(p90(ours, 'totalMs'))} | read + \`JSON.parse\` of every line, bare Node: ${ms(m(floor, 'ms'))} | ${(total / m(floor, 'ms')).toFixed(2)}× | ≤ ${TARGET_MS} ms | ${total <= TARGET_MS ? 'met' : '**not met**'} |`,
      `| … of which reading and checking the file | ${ms(m(ours, 'loadMs'))} | ${ms(p90(ours, 'loadMs'))} | — | — | — | — |`,
      `| … peak RSS of that process (the kernel booted) | ${mib(m(ours, 'rssKiB'))} | ${mib(p90(ours, 'rssKiB'))} | bare Node: ${mib(m(floor, 'rssKiB'))} | — | — | — |`,
      `| one fsynced append of a 300-byte record (${appends.count} in a row, this disk) | ${appends.median.toFixed(3)} ms | ${appends.p90.toFixed(3)} ms | the same write without fsync: ${appends.noSync.toFixed(3)} ms | — | — | — |`,
    ].join('\n');
    return {
      markdown: `${markdown}\n\nThe resume runs in a child process (scripts/bench/resume-driver.mjs) that boots the built package with the default plugins and times \`SessionStore.load\` and \`kernel.resumeSession\`, as \`--continue\` does before its first request; ${runs} runs, the floor interleaved. The transcript is one prompt followed by tool calls and results of ≈ 200 characters. The append row writes records of the session plugin's size with \`writeSync\` + \`fsyncSync\`: it is the disk's price for each of the three records of a tool turn (the assistant turn, the result, the tool message). The plugin pays only the write on the event loop; it starts the fsync on libuv's thread pool at once (plugins/session/transcript-writer.ts).`,
      total,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

function measureAppends(dir) {
  const count = 200;
  const line = `${JSON.stringify({ v: 1, type: 'message', time: new Date().toISOString(), message: { role: 'tool', results: [{ toolCallId: 'toolu_1', isError: false, content: 'x'.repeat(200) }] } })}\n`;
  const time = (sync) => {
    const fd = openSync(path.join(dir, `appends-${sync}.jsonl`), 'a');
    const samples = [];
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      writeSync(fd, line);
      if (sync) fsyncSync(fd);
      samples.push(performance.now() - t);
    }
    closeSync(fd);
    return samples;
  };
  const synced = time(true);
  return { count, median: median(synced), p90: percentile(synced, 90), noSync: median(time(false)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { markdown } = await benchSessions({ runs: Number(process.argv[2] ?? 5) });
  process.stdout.write(`${markdown}\n`);
}
