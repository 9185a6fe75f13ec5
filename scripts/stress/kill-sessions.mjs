#!/usr/bin/env node
// Issue 10's kill -9 suite at full size: a scripted multi-tool `mewcode -p` run is killed with
// SIGKILL at N points (default 200) chosen from a seeded random sequence — after the k-th model
// request plus a random delay — and each is followed by `mewcode --continue -p`, whose request must
// be valid: roles alternate from a user message and every tool_use is answered in the next message.
// Prints one line per failure and a summary; exit 1 when any session could not be recovered.
//
//   npm run build && node scripts/stress/kill-sessions.mjs [--points 200] [--seed 1]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(ROOT, 'bin', 'mewcode.js');
const { values } = parseArgs({ options: { points: { type: 'string', default: '200' }, seed: { type: 'string', default: '1' } } });
const points = Number.parseInt(values.points, 10);
let seed = Number.parseInt(values.seed, 10) || 1;
if (!(points >= 1)) {
  process.stderr.write('usage: node scripts/stress/kill-sessions.mjs [--points N ≥ 1] [--seed S]\n');
  process.exit(2);
}
const { startScriptedServer } = await import(path.join(ROOT, 'dist', 'scripted-server-lib.js'));

/** xorshift32: the same seed gives the same kill points. */
function random() {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
}

const TOOL_TURNS = [1, 2, 3, 4, 5].map((n) => ({ text: `Step ${n}.`, chunkDelayMs: 10, toolCalls: [{ id: `toolu_${n}`, name: n % 2 ? 'read_file' : 'write_file', input: n % 2 ? { path: 'notes.txt' } : { path: `out-${n}.txt`, content: `step ${n}\n` } }] }));

function env(server, home) {
  return { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'stress-key', ANTHROPIC_BASE_URL: server.url, MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'stress' };
}

function validity(body) {
  const messages = body?.messages ?? [];
  if (messages[0]?.role !== 'user') return 'the history does not start with a user message';
  for (let i = 0; i < messages.length; i++) {
    if (i > 0 && messages[i].role === messages[i - 1].role) return `messages ${i - 1} and ${i} have the same role`;
    const calls = messages[i].role === 'assistant' ? messages[i].content.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    if (calls.length === 0) continue;
    const answered = (messages[i + 1]?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    if (JSON.stringify(answered) !== JSON.stringify(calls)) return `tool calls ${calls.join(', ')} answered by ${answered.join(', ') || 'nothing'}`;
  }
  return undefined;
}

function run(args, cwd, environment, killWhen) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: environment, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    killWhen?.(() => child.kill('SIGKILL'));
    child.once('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

let recovered = 0;
let nothingSaved = 0;
let finishedFirst = 0;
const failures = [];
const started = performance.now();
for (let i = 0; i < points; i++) {
  const afterRequest = Math.floor(random() * 7); // 0 (before any request) … 6 (the final answer)
  const delayMs = Math.floor(random() * 60);
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'mewcode-stress-cwd-'));
  const home = mkdtempSync(path.join(os.tmpdir(), 'mewcode-stress-home-'));
  try {
    writeFileSync(path.join(cwd, 'notes.txt'), 'notes\n');
    let kill = () => undefined;
    const first = await startScriptedServer({
      turns: [...TOOL_TURNS, { text: 'All done.', chunkDelayMs: 10 }],
      onRequest: () => {
        if (first.requests.length === afterRequest) setTimeout(() => kill(), delayMs);
      },
    });
    const killed = await run(['-p', 'work through the steps', '--permission-mode', 'bypassPermissions'], cwd, env(first, home), (k) => {
      kill = k;
      if (afterRequest === 0) setTimeout(k, delayMs);
    });
    await first.close();
    if (killed.signal !== 'SIGKILL') finishedFirst++;
    const next = await startScriptedServer({ turns: [...TOOL_TURNS, { text: 'Resumed.' }] });
    const resumed = await run(['--continue', '-p', 'continue', '--permission-mode', 'bypassPermissions'], cwd, env(next, home));
    const body = next.requests[0]?.body;
    await next.close();
    const sessions = path.join(cwd, '.mewcode', 'sessions');
    const saved = existsSync(sessions) && readdirSync(sessions).some((name) => existsSync(path.join(sessions, name, 'conversation.jsonl')));
    const point = `point ${i + 1} (after request ${afterRequest} + ${delayMs} ms)`;
    if (!saved && resumed.code === 2 && afterRequest === 0) nothingSaved++;
    else if (resumed.code !== 0) failures.push(`${point}: --continue exited ${resumed.code}: ${resumed.stderr.trim()}`);
    else {
      const problem = validity(body);
      if (problem) failures.push(`${point}: ${problem}`);
      else recovered++;
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}
for (const failure of failures) process.stdout.write(`unrecoverable: ${failure}\n`);
process.stdout.write(
  `kill -9 stress: ${points} points (seed ${values.seed}), ${recovered} recovered with a valid next request, ${nothingSaved} killed before anything was saved, ${failures.length} unrecoverable; ${finishedFirst} runs had finished before their kill; ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
);
process.exit(failures.length === 0 ? 0 : 1);
