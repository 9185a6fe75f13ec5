/**
 * The instruction files and their imports are read once per session: the stable prompt is built
 * again when the tool list or the model changes (MCP tools arriving, /model), and an imported file
 * edited meanwhile must not change the cached prefix then. A new session reads them afresh. They are
 * read (and judged by the permission chain, as read_file calls) when the session starts.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import providerAnthropic from '../../../plugins/provider-anthropic/index.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import systemPrompt from '../../../plugins/system-prompt/index.js';
import toolReadFile from '../../../plugins/tool-read-file/index.js';

const PLUGINS = [providerAnthropic, permissionMode, outputLimits, toolReadFile, systemPrompt];

test('an imported file edited mid-session does not change the session\'s prompt; a new session sees the edit', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'mc-home-'));
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-root-'));
  await writeFile(path.join(root, 'CLAUDE.md'), 'See @rules.md');
  await writeFile(path.join(root, 'rules.md'), 'RULES-V1');
  const kernel = await Kernel.create({ plugins: PLUGINS, projectRoot: root, homeDir: home, env: { ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'x' }, reporter: new MemoryReporter() });
  try {
    await kernel.startSession();
    const first = kernel.session.systemPrompt();
    expect(first).toContain('RULES-V1');
    await writeFile(path.join(root, 'rules.md'), 'RULES-V2');
    await writeFile(path.join(root, 'CLAUDE.md'), 'See @rules.md, edited');
    // Another model (/model) rebuilds the stable prompt, as a tool arriving mid-session does.
    kernel.session.switchModel({ model: 'y' });
    expect(kernel.session.systemPrompt()).toBe(first);
  } finally {
    await kernel.shutdown();
  }
  const next = await Kernel.create({ plugins: PLUGINS, projectRoot: root, homeDir: home, env: { ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'x' }, reporter: new MemoryReporter() });
  try {
    await next.startSession();
    expect(next.session.systemPrompt()).toContain('RULES-V2');
  } finally {
    await next.shutdown();
  }
});
