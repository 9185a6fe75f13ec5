#!/usr/bin/env node
// `npm run demo`: MewCode end to end with no API key. A scripted model server (in this process)
// plays the model; the real CLI runs as a child process in a throw-away project whose
// .mewcode.yaml loads a small tool plugin; its stream-json events are printed as they arrive.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EventPrinter, style } from './demo/printer.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_LIB = path.join(ROOT, 'dist', 'scripted-server-lib.js');
const CLI = path.join(ROOT, 'bin', 'mewcode.js');
// Example models for the "run it for real" lines (and the name the scripted run reports). The
// installed Anthropic SDK lists claude-sonnet-4-5 as deprecated (end of life 2026-11-30) and warns
// on every request, so the newest Sonnet in its model list is used instead.
const MODEL = 'claude-sonnet-5-5';
const OPENAI_MODEL = 'gpt-5.4';
const PROMPT = 'How many words are in notes.md?';
const TIMEOUT_MS = 60_000;

if (!existsSync(SERVER_LIB) || !existsSync(path.join(ROOT, 'dist', 'mewcode.js'))) {
  process.stderr.write('demo: the bundle is missing; run `npm run build` first (`npm run demo` does it for you)\n');
  process.exit(2);
}
const { startScriptedServer } = await import(pathToFileURL(SERVER_LIB).href);

// ---- a throw-away project ---------------------------------------------------------------------
const project = mkdtempSync(path.join(os.tmpdir(), 'mewcode-demo-'));
const home = path.join(project, '.demo-home'); // an empty HOME: no user configuration interferes
const cleanup = () => rmSync(project, { recursive: true, force: true });
writeFileSync(
  path.join(project, 'notes.md'),
  '# Notes\n\nMewCode is a terminal coding agent built as a small plugin kernel.\nTools, providers and user interfaces are all plugins.\n',
);
copyFileSync(path.join(ROOT, 'scripts', 'demo', 'word-count-plugin.mjs'), path.join(project, 'word-count.mjs'));
writeFileSync(path.join(project, '.mewcode.yaml'), '# Load the demo tool plugin (a path relative to this project).\nplugins: ["./word-count.mjs"]\n');

// ---- the scripted model -----------------------------------------------------------------------
// Turn 1 thinks, says what it will do and calls the plugin's tool. Turn 2 is written when the
// CLI's second request arrives, from the tool result inside it, so the answer really uses it.
const firstTurn = {
  thinking: { text: 'The user wants a word count of notes.md. The project has a word_count tool; I will call it rather than guess.', signature: 'demo-signature' },
  text: "I'll count them with the project's word_count tool.",
  toolCalls: [{ name: 'word_count', input: { path: 'notes.md' } }],
  usage: { input: 412, output: 58 },
};
let server;
server = await startScriptedServer({
  turns: [firstTurn],
  onRequest() {
    if (server.requests.length !== 2) return;
    const toolResult = findToolResult(server.requests[1].body);
    const counts = /(\d+) words, (\d+) lines/.exec(toolResult ?? '');
    server.push({
      text: counts
        ? `notes.md has **${counts[1]} words** across ${counts[2]} lines (counted by word_count).`
        : `The word_count tool answered: ${toolResult ?? '(no result found)'}`,
      usage: { input: 498, output: 21 },
    });
  },
});

function findToolResult(body) {
  for (const block of body?.messages?.at(-1)?.content ?? []) {
    if (block?.type !== 'tool_result') continue;
    return typeof block.content === 'string' ? block.content : block.content?.map((part) => part.text ?? '').join('');
  }
  return undefined;
}

// ---- run the real CLI ---------------------------------------------------------------------------
const env = { ...process.env };
for (const key of Object.keys(env)) if (/^(ANTHROPIC_|OPENAI_|MEWCODE_)/.test(key)) delete env[key];
Object.assign(env, { HOME: home, USERPROFILE: home, ANTHROPIC_API_KEY: 'demo-key-not-a-secret', ANTHROPIC_BASE_URL: server.url, MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: MODEL });

const out = process.stdout;
out.write(`${style.bold('MewCode demo')}: no API key needed, a scripted model server at ${server.url} plays the model.\n\n`);
out.write(`  project     ${project} (temporary)\n              notes.md, and a .mewcode.yaml that loads ./word-count.mjs, a plugin adding a word_count tool\n`);
out.write(`  command     mewcode -p "${PROMPT}" --output-format stream-json --trust-project\n`);
out.write('              (--trust-project: the plugins of a project run only in a project you trust; without it they are skipped with a notice)\n\n');

const printer = new EventPrinter(out);
const started = performance.now();
const child = spawn(process.execPath, [CLI, '-p', PROMPT, '--output-format', 'stream-json', '--trust-project'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
const timer = setTimeout(() => {
  stderr += `demo: the CLI did not finish within ${TIMEOUT_MS / 1000} s; stopped it\n`;
  child.kill('SIGTERM');
}, TIMEOUT_MS);
const onInterrupt = () => {
  child.kill('SIGTERM');
  void server.close();
  cleanup();
  process.exit(130);
};
process.once('SIGINT', onInterrupt);
const lines = createInterface({ input: child.stdout });
lines.on('line', (line) => printer.line(line));
const [code, signal] = await new Promise((resolve) => child.once('close', (c, s) => resolve([c, s])));
await new Promise((resolve) => (lines.closed ? resolve() : lines.once('close', resolve)));
clearTimeout(timer);
process.off('SIGINT', onInterrupt);
printer.close();
const elapsed = performance.now() - started;
await server.close();
cleanup();

const result = printer.result;
const ok = code === 0 && result && !result.is_error;
out.write('\n');
if (!ok) {
  out.write(style.red(`The CLI run failed (exit ${code ?? signal}${result ? `, ${result.subtype}` : ', no result line'}).\n`));
  if (stderr.trim()) out.write(`CLI stderr:\n${stderr.trim()}\n`);
  process.exit(code && code !== 0 ? code : 1);
}
out.write(`${style.bold('Final result')} (the last stream-json line; --output-format json prints just this), ${Math.round(elapsed)} ms in all:\n`);
out.write(`${printer.resultLine}\n\n`);
out.write(`${style.bold('Run it for real')} (from this checkout use \`node bin/mewcode.js\`, or \`npm link\` first):\n`);
out.write(`  ANTHROPIC_API_KEY=sk-ant-... MEWCODE_MODEL=${MODEL} npx mewcode -p "Summarise this repository"\n`);
out.write(`  OPENAI_API_KEY=sk-... MEWCODE_PROVIDER=openai MEWCODE_MODEL=${OPENAI_MODEL} npx mewcode -p "Summarise this repository"\n`);
out.write(style.dim('Add --output-format json or stream-json for scripts; list your own plugins under `plugins:` in .mewcode.yaml.\n'));
