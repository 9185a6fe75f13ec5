/**
 * The built-in commands plugin: /help lists every contributed command (this plugin's and any
 * other plugin's) with its argument hint and description; /compact runs the session's manual
 * compaction and says whether the history changed, or plainly that the build cannot compact.
 * Then the headless UI in process: `-p "/help"`, `-p "/compact"`, and an unknown `/name`.
 */
import { PassThrough, Readable } from 'node:stream';
import { ContainerModule } from 'inversify';
import commandsPlugin, { NO_COMPACTION_SERVICE, renderHelp } from '../../../plugins/commands/index.js';
import uiHeadless from '../../../plugins/ui-headless/index.js';
import { HeadlessUserInterface } from '../../../plugins/ui-headless/headless-ui.js';
import { slashCommandName, unknownCommandMessage } from '../../../plugins/ui-headless/slash-command.js';
import type { Command } from '../../../types/commands.js';
import { definePlugin, type CliOptions, type MewcodePlugin } from '../../../types/plugin.js';
import type { CompactionService } from '../../../types/session.js';
import { TOKENS } from '../../../types/tokens.js';
import type { Kernel } from '../../../kernel/kernel.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { say } from '../../support/memory-provider.js';

/** Another plugin's command, as a third-party plugin would contribute it. */
const greet: Command = {
  name: 'greet',
  description: 'Say hello to someone\n(second line not shown in the list)',
  argumentHint: '<name>',
  async run(_session, args) {
    return { output: `hello ${args}` };
  },
};
const greetPlugin = definePlugin({ name: 'test-greet', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Command).toConstantValue(greet)) });

function compactionPlugin(compact: CompactionService['compact']): MewcodePlugin {
  const service: CompactionService = { shouldCompact: () => false, compact };
  return definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
}

function command(kernel: Kernel, name: string): Command {
  const found = kernel.commands().find((c) => c.name === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
}

describe('/help', () => {
  it('lists every contributed command, sorted, with its argument hint and the first line of its description', async () => {
    const { kernel } = await bootKernel([], [commandsPlugin, greetPlugin]);
    const result = await command(kernel, 'help').run(kernel.session, '', { mode: 'default' });
    expect(result.isError).toBeFalsy();
    expect(result.output!.split('\n')).toEqual([
      'Commands:',
      '  /compact [focus]  Compact the conversation now (summarise older turns to free context; a focus says what the summary should keep)',
      '  /greet <name>     Say hello to someone',
      '  /help [command]   List the available commands, or describe one',
    ]);
  });

  it('/help <command> describes one; an unknown name is an error that lists the others', async () => {
    const { kernel } = await bootKernel([], [commandsPlugin, greetPlugin]);
    const help = command(kernel, 'help');
    expect((await help.run(kernel.session, 'greet', { mode: 'default' })).output).toBe('/greet <name>\n  Say hello to someone (second line not shown in the list)');
    // A description's and a hint's own line breaks never start a line of the listing (a file could forge one).
    const forged: Command = { name: 'forged', description: 'Fine\nmewcode: warning: forged\r', argumentHint: '[a]\nmewcode: x', run: async () => ({}) };
    expect(renderHelp([forged])).toBe('Commands:\n  /forged [a] mewcode: x  Fine');
    expect((await help.run(kernel.session, '/compact', { mode: 'default' })).output).toMatch(/^\/compact \[focus\]\n {2}Compact the conversation now/);
    const unknown = await help.run(kernel.session, 'nope', { mode: 'default' });
    expect(unknown).toEqual({ isError: true, output: '/help: there is no command /nope; available: /compact, /greet, /help' });
  });

  it('a name contributed twice is listed once (the first contribution, the one that runs)', () => {
    const other: Command = { ...greet, description: 'another greeting' };
    expect(renderHelp([greet, other]).split('\n')).toEqual(['Commands:', '  /greet <name>  Say hello to someone']);
    expect(renderHelp([])).toBe('No commands are available in this build.');
  });
});

describe('/compact', () => {
  it('without a compaction service it says so plainly, as an error, and calls no model', async () => {
    const { kernel, model } = await bootKernel([say('first')], [commandsPlugin]);
    await runPrompt(kernel, 'hi');
    const before = kernel.conversation.messages.length;
    const result = await command(kernel, 'compact').run(kernel.session, '', { mode: 'default' });
    expect(result).toEqual({ isError: true, output: NO_COMPACTION_SERVICE });
    expect(NO_COMPACTION_SERVICE).toMatch(/no compaction service/);
    expect(kernel.conversation.messages).toHaveLength(before);
    expect(model.requests).toHaveLength(1); // the run's, nothing more
  });

  it('with a service: compacts the session and reports the history before and after', async () => {
    const reasons: string[] = [];
    const plugin = compactionPlugin(async (messages, { reason }) => {
      reasons.push(reason);
      return [{ role: 'user', content: [{ type: 'text', text: '(summary)' }] }, ...messages.slice(-1)];
    });
    const { kernel } = await bootKernel([say('one'), say('two')], [commandsPlugin, plugin]);
    await runPrompt(kernel, 'first');
    await runPrompt(kernel, 'second');
    expect(kernel.conversation.messages).toHaveLength(4);
    const result = await command(kernel, 'compact').run(kernel.session, '', { mode: 'default' });
    expect(result).toEqual({ output: 'Compacted the conversation: 4 messages before, 2 messages now.' });
    expect(reasons).toEqual(['manual']);
    expect(kernel.conversation.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: '(summary)' }] });
  });

  it('with a service that finds nothing to compact, or an empty conversation: not an error, history unchanged', async () => {
    const plugin = compactionPlugin(async () => undefined);
    const { kernel } = await bootKernel([say('one')], [commandsPlugin, plugin]);
    const compact = command(kernel, 'compact');
    expect(await compact.run(kernel.session, '', { mode: 'default' })).toEqual({ output: 'Nothing to compact: the conversation is empty.' });
    await runPrompt(kernel, 'first');
    expect(await compact.run(kernel.session, 'keep the API notes', { mode: 'default' })).toEqual({
      output: 'Nothing was compacted: the history (2 messages) is unchanged.',
    });
    expect(kernel.conversation.messages).toHaveLength(2);
  });
});

describe('/compact cancelled', () => {
  /** A summary that takes long: it ends when its signal aborts (as a model request does), or never honours it. */
  const slowSummary = (honoursSignal: boolean): CompactionService['compact'] => async (messages, { signal }) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, 1_000);
      if (honoursSignal) signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('the summary request was cancelled'))), { once: true });
    });
    return [{ role: 'user', content: [{ type: 'text', text: '(summary)' }] }];
  };

  it.each([
    ['a service that aborts its summary request', true],
    ['a service that ignores the signal and answers late', false],
  ])('with %s: the command says it was cancelled, and the history is exactly as it was', async (_what, honours) => {
    const { kernel } = await bootKernel([say('one'), say('two')], [commandsPlugin, compactionPlugin(slowSummary(honours))]);
    await runPrompt(kernel, 'first');
    await runPrompt(kernel, 'second');
    const before = structuredClone(kernel.conversation.messages);
    const controller = new AbortController();
    const t0 = Date.now();
    const running = command(kernel, 'compact').run(kernel.session, 'keep names', { mode: 'default', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const result = await running;
    if (honours) expect(Date.now() - t0).toBeLessThan(500);
    expect(result).toEqual({ isError: true, output: 'Compaction cancelled: the conversation is kept as it is.' });
    expect(kernel.conversation.messages).toEqual(before);
    // The session goes on with that history.
    await runPrompt(kernel, 'third');
    expect(kernel.conversation.messages).toHaveLength(6);
  });

  it('already cancelled before it starts: the service is never asked', async () => {
    let asked = 0;
    const { kernel } = await bootKernel([say('one')], [commandsPlugin, compactionPlugin(async () => (asked++, []))]);
    await runPrompt(kernel, 'first');
    const result = await command(kernel, 'compact').run(kernel.session, '', { mode: 'default', signal: AbortSignal.abort() });
    expect(result.output).toBe('Compaction cancelled: the conversation is kept as it is.');
    expect(asked).toBe(0);
    expect(kernel.conversation.messages).toHaveLength(2);
  });
});

describe('slash command names in a prompt', () => {
  it('a command-like first word is a command call; a path is not', () => {
    expect(slashCommandName('/help')).toBe('help');
    expect(slashCommandName('  /compact now ')).toBe('compact');
    expect(slashCommandName('/mcp:list x')).toBe('mcp:list');
    expect(slashCommandName('/usr/lib is missing')).toBeUndefined();
    expect(slashCommandName('/tmp/x.log: why?')).toBeUndefined();
    // Dots are part of a name, as Claude Code runs Spec Kit's `/speckit.specify`: unknown, an error as `/compcat` is.
    expect(slashCommandName('/speckit.specify Build a todo app')).toBe('speckit.specify');
    expect(slashCommandName('/notes.md please')).toBe('notes.md');
    expect(slashCommandName('explain /help')).toBeUndefined();
    expect(slashCommandName('/tmp is full, what can I delete?')).toBeUndefined(); // an existing path is text
    expect(slashCommandName('/compcat')).toBe('compcat'); // a mistyped command is still an error
  });

  it('the unknown-command message names the command and the available ones', () => {
    expect(unknownCommandMessage('nope', [greet])).toBe('unknown command /nope; available: /greet. To send text that starts with a slash to the model, put a word before it.');
    expect(unknownCommandMessage('nope', [])).toMatch(/^unknown command \/nope; this build has no slash commands\./);
  });
});

describe('through the headless UI (mewcode -p)', () => {
  const stdinTTY = Object.getOwnPropertyDescriptor(process.stdin, 'isTTY');
  // A TTY stdin is not read: the prompt is only the -p text.
  beforeAll(() => Object.defineProperty(process.stdin, 'isTTY', { value: true, configurable: true }));
  afterAll(() => {
    if (stdinTTY) Object.defineProperty(process.stdin, 'isTTY', stdinTTY);
    else delete (process.stdin as { isTTY?: boolean }).isTTY;
  });

  const options = (prompt: string, outputFormat: CliOptions['outputFormat'] = 'text'): CliOptions => ({
    prompt,
    outputFormat,
    permissionMode: 'default',
    permissionModeGiven: false,
    debugBoot: false,
    cwd: '/tmp/project',
    allowedTools: [],
    disallowedTools: [],
  });

  async function headless(prompt: string, outputFormat: CliOptions['outputFormat'] = 'text', steps = [say('from the model')]) {
    const booted = await bootKernel(steps, [commandsPlugin, uiHeadless, greetPlugin]);
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = '';
    let stderr = '';
    out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ui = new HeadlessUserInterface(out, err, undefined, Readable.from([])); // not the runner's stdin
    booted.kernel.activateUi(ui);
    const code = await ui.run(booted.kernel, options(prompt, outputFormat));
    return { code, stdout, stderr, requests: booted.model.requests };
  }

  it('-p "/help": the list on stdout, exit 0, no model request', async () => {
    const r = await headless('/help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  /help [command]   List the available commands, or describe one\n');
    expect(r.stdout).toContain('  /compact ');
    expect(r.stdout).toContain('  /greet <name> ');
    expect(r.stderr).toBe('');
    expect(r.requests).toHaveLength(0);
  });

  it('-p "/compact" without a compaction service: the reason on stderr, exit 1; json names the command', async () => {
    const text = await headless('/compact');
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe(`${NO_COMPACTION_SERVICE}\n`);
    const json = await headless('/compact', 'json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ type: 'result', is_error: true, command: 'compact', result: NO_COMPACTION_SERVICE });
    expect(json.requests).toHaveLength(0);
  });

  it('an unknown /name is a usage error (exit 2) naming it and the commands; the model is not called', async () => {
    const r = await headless('/nope do things');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'mewcode: unknown command /nope; available: /compact, /greet, /help (mewcode -p "/help" describes them). To send text that starts with a slash to the model, put a word before it.\n',
    );
    expect(r.requests).toHaveLength(0);
  });

  it('a prompt that starts with a path still goes to the model', async () => {
    const r = await headless('/usr/lib is missing, why?');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('from the model\n');
    expect(r.requests).toHaveLength(1);
  });
});
