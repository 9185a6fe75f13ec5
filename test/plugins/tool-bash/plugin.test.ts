/** The tool-bash plugin through a real kernel: registration, configuration, and the timeout interplay (L7). */
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../config/load.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import bashPlugin, { bashSection } from '../../../plugins/tool-bash/index.js';
import type { ToolResult } from '../../../types/messages.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { processGone, readPid, waitUntilGone } from './helpers.js';

async function tmp(prefix: string): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}

function results(events: Awaited<ReturnType<typeof runPrompt>>): ToolResult[] {
  return events.flatMap((e) => (e.type === 'tool_end' ? [e.result] : []));
}

test('the kernel registers bash and runs it; a declared timeout beats a short kernel default', async () => {
  const root = await tmp('mc-bash-kernel-');
  const { kernel } = await bootKernel(
    [useTools([call('bash', { command: 'echo hi' })]), useTools([call('bash', { command: 'sleep 2; echo slept', timeout: 5000 })]), say('done')],
    [outputLimits, bashPlugin],
    { projectRoot: root, homeDir: await tmp('mc-bash-home-'), defaultToolTimeoutMs: 500 },
  );
  expect(kernel.tools.get('bash')).toBeDefined();
  expect(kernel.tools.definitions().map((d) => d.name)).toContain('bash');
  const events = await runPrompt(kernel, 'go');
  const [first, second] = results(events);
  expect(first).toMatchObject({ content: 'exit_code: 0\nhi', isError: false });
  expect(second).toMatchObject({ content: 'exit_code: 0\nslept', isError: false });
});

test("without a timeout parameter the tool's own default applies, not the kernel's", async () => {
  const root = await tmp('mc-bash-kernel-');
  const { kernel } = await bootKernel([useTools([call('bash', { command: 'sleep 0.8; echo ok' })]), say('done')], [outputLimits, bashPlugin], {
    projectRoot: root,
    homeDir: root,
    defaultToolTimeoutMs: 300,
  });
  const [result] = results(await runPrompt(kernel, 'go'));
  expect(result).toMatchObject({ content: 'exit_code: 0\nok', isError: false });
});

test("the tool's own timeout result reaches the model as an error with the partial output", async () => {
  const root = await tmp('mc-bash-kernel-');
  const { kernel } = await bootKernel([useTools([call('bash', { command: 'echo part; sleep 30', timeout: 300 })]), say('done')], [outputLimits, bashPlugin], {
    projectRoot: root,
    homeDir: root,
  });
  const started = Date.now();
  const [result] = results(await runPrompt(kernel, 'go'));
  expect(Date.now() - started).toBeLessThan(2500);
  expect(result?.isError).toBe(true);
  expect(result?.content).toContain('timed out after 300 ms');
  expect(result?.content).toContain('\npart\n');
});

test('cancelling the run stops the command and everything it started', async () => {
  const root = await tmp('mc-bash-kernel-');
  const pidFile = path.join(root, 'child.pid');
  const { kernel } = await bootKernel([useTools([call('bash', { command: `sh -c 'sleep 30 & echo $! > ${pidFile}; wait'` })]), say('done')], [outputLimits, bashPlugin], {
    projectRoot: root,
    homeDir: root,
  });
  const controller = new AbortController();
  const running = runPrompt(kernel, 'go', 'bypassPermissions', controller.signal);
  // Cancelled once the command runs, however slowly a loaded machine starts it.
  const pid = await readPid(pidFile, 10_000);
  const cancelledAt = Date.now();
  controller.abort();
  const events = await running;
  expect(Date.now() - cancelledAt).toBeLessThan(3000);
  expect(results(events)[0]?.isError).toBe(true);
  expect(await waitUntilGone(pid, 1000)).toBe(true);
});

test("bash.env_allowlist from the user's configuration is passed; background jobs stop at session end", async () => {
  const root = await tmp('mc-bash-kernel-');
  const home = await tmp('mc-bash-home-');
  await mkdir(path.join(home, '.mewcode'));
  await writeFile(path.join(home, '.mewcode', 'config.yaml'), 'bash:\n  env_allowlist: [MEWCODE_TEST_EXTRA]\n');
  process.env.MEWCODE_TEST_EXTRA = 'from-config';
  process.env.MEWCODE_TEST_SECRET = 'hunter2';
  try {
    const { kernel, reporter } = await bootKernel(
      [useTools([call('bash', { command: 'echo "$MEWCODE_TEST_EXTRA ${MEWCODE_TEST_SECRET:-absent}"; sleep 30 & echo "bg $!"' })]), say('done')],
      [outputLimits, bashPlugin],
      { projectRoot: root, homeDir: home, config: await loadConfig({ cwd: root, homeDir: home }) },
    );
    expect(reporter).toBeDefined();
    const [result] = results(await runPrompt(kernel, 'go'));
    expect(result?.content).toMatch(/^exit_code: 0\nfrom-config absent\nbg \d+\n/);
    const pid = Number(/bg (\d+)/.exec(result?.content ?? '')?.[1]);
    expect(processGone(pid)).toBe(false);
    await kernel.shutdown();
    expect(await waitUntilGone(pid, 1000)).toBe(true);
  } finally {
    delete process.env.MEWCODE_TEST_EXTRA;
    delete process.env.MEWCODE_TEST_SECRET;
  }
});

test('bash.env_allowlist in the project configuration (which a repository controls) is ignored, loudly (K5)', async () => {
  const root = await tmp('mc-bash-kernel-');
  const home = await tmp('mc-bash-home-');
  await writeFile(path.join(root, '.mewcode.yaml'), 'bash:\n  env_allowlist: [MEWCODE_TEST_SECRET]\n');
  process.env.MEWCODE_TEST_SECRET = 'hunter2';
  try {
    const { kernel, reporter } = await bootKernel(
      [useTools([call('bash', { command: 'echo "${MEWCODE_TEST_SECRET:-absent}"' })]), say('done')],
      [outputLimits, bashPlugin],
      // Trusted: even then the project may not hand secrets to bash; only the user's files may.
      { projectRoot: root, homeDir: home, config: await loadConfig({ cwd: root, homeDir: home, trust: await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true }) }) },
    );
    const [result] = results(await runPrompt(kernel, 'go'));
    expect(result?.content).toBe('exit_code: 0\nabsent');
    expect(reporter.warnings).toEqual([expect.stringMatching(/\.mewcode\.yaml:2:\d+: bash\.env_allowlist is ignored in the project configuration/)]);
  } finally {
    delete process.env.MEWCODE_TEST_SECRET;
  }
});

test('a bad bash section is reported with its location and ignored (K2)', async () => {
  const root = await tmp('mc-bash-kernel-');
  const home = await tmp('mc-bash-home-');
  await writeFile(path.join(root, '.mewcode.yaml'), 'bash:\n  env_allowlist: ["NOT-A-NAME"]\n  colour: blue\n');
  const { kernel, reporter } = await bootKernel([useTools([call('bash', { command: 'echo still works' })]), say('done')], [outputLimits, bashPlugin], {
    projectRoot: root,
    homeDir: home,
    config: await loadConfig({ cwd: root, homeDir: home, trust: await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true }) }),
  });
  const warnings = reporter.warnings.join('\n');
  expect(warnings).toMatch(/\.mewcode\.yaml:2:\d+: bash\.env_allowlist\[0\]: "NOT-A-NAME" is not an environment variable name/);
  expect(warnings).toMatch(/\.mewcode\.yaml:3:\d+: bash\.colour: Unknown key "colour"/);
  const [result] = results(await runPrompt(kernel, 'go'));
  expect(result?.content).toBe('exit_code: 0\nstill works');
});

test('the section parser accepts an empty section and de-duplicates names', () => {
  expect(bashSection.parse(null)).toEqual({ ok: true, value: { envAllowlist: [] } });
  expect(bashSection.parse({ env_allowlist: ['A', 'B', 'A'] })).toEqual({ ok: true, value: { envAllowlist: ['A', 'B'] } });
  expect(bashSection.parse({ env_allowlist: 'A' })).toEqual({ ok: false, issues: [{ path: ['env_allowlist'], message: 'Expected array, received string' }] });
  expect(bashSection.parse([])).toEqual({ ok: false, issues: [{ path: [], message: 'Expected object, received array' }] });
});
