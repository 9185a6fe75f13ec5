/**
 * Claude Code plugins end to end through the built CLI: `--plugin-dir` names a plugin directory
 * holding a command, an agent, a skill, a hook and an MCP server (a real one: server-everything),
 * and each reaches the run through the plugin owning its kind, against the scripted model.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { EVERYTHING } from '../plugins/mcp/helpers.js';
import { write, writeKitPlugin } from '../plugins/claude-plugins/fixture.js';
import { lastUserTexts, prepareCli, removeTempDirs, scenario, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const SANDBOX_ENV = { MEWCODE_REQUIRE_SANDBOX: process.env.MEWCODE_REQUIRE_SANDBOX };
/**
 * The kit's hooks are the user's own: on the host in a trusted project, as Claude Code runs them
 * (in an untrusted one they run in the OS sandbox, where this /tmp plugin folder is not visible).
 */
const TRUSTED_ENV = { ...SANDBOX_ENV, MEWCODE_TRUST_PROJECT: '1' };

/** The kit plugin; its MCP server (a real one, slow to start on a loaded machine) only where a test uses it. */
function kit(withServer = false): string {
  const dir = tempDir('mewcode-claude-plugin-');
  writeKitPlugin(dir, withServer ? { mcp: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } : {});
  return dir;
}

const sentText = (request: { body: any }): string => lastUserTexts(request.body).join('\n');
const systemText = (body: any): string => (typeof body.system === 'string' ? body.system : (body.system ?? []).map((b: any) => b.text).join('\n'));

test('a plugin command runs as /kit:hello and bare /hello with 0-based arguments, ${CLAUDE_PLUGIN_ROOT} and its ! line; /help lists it', async () => {
  await scenario([{ text: 'one' }, { text: 'two' }], async (s) => {
    const dir = kit();
    const help = await s.run(['-p', '/help', '--plugin-dir', dir]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/\/kit:hello <who> <other>\s+Say hello \(plugin kit\)/);
    const r = await s.run(['-p', '/kit:hello Alice Bob', '--plugin-dir', dir], { env: TRUSTED_ENV });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(sentText(s.requests[0]!)).toBe(`Hello Alice and Bob!\nRoot: ${dir}\nplugin-line-42`);
    const bare = await s.run(['-p', '/hello Carol Dan', '--plugin-dir', dir], { env: TRUSTED_ENV });
    expect(bare.code).toBe(0);
    expect(sentText(s.requests[1]!)).toContain('Hello Carol and Dan!');
  });
}, 60_000);

test("a plugin command's ! line goes through the permission chain: a deny rule stops the command before any request", async () => {
  await scenario([{ text: 'never' }], async (s) => {
    const r = await s.run(['-p', '/kit:hello Alice Bob', '--plugin-dir', kit(), '--disallowedTools', 'Bash(echo:*)'], { env: SANDBOX_ENV });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/permission check failed for !`echo plugin-line-\$\(\(40\+2\)\)`/);
    expect(s.requests).toHaveLength(0);
  });
});

test("the agent tool runs a plugin's agent as kit:reviewer, with its prompt (${CLAUDE_PLUGIN_ROOT} filled in) as the sub-agent's system prompt", async () => {
  await scenario(
    [
      { toolCalls: [{ id: 'a1', name: 'agent', input: { description: 'review', prompt: 'Review the kit', subagent_type: 'kit:reviewer' } }] },
      { text: 'Reviewed: all good.' },
      { text: 'done' },
    ],
    async (s) => {
      const dir = kit();
      const r = await s.run(['-p', 'review it', '--plugin-dir', dir]);
      expect(r.code).toBe(0);
      const agentTool = s.requests[0]!.body.tools.find((t: any) => t.name === 'agent');
      expect(agentTool.description).toContain('- kit:reviewer: Reviews things for the kit');
      expect(systemText(s.requests[1]!.body)).toContain(`You are the kit reviewer. Kit files live in ${dir}.`);
      const result = s.requests[2]!.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
      expect(JSON.stringify(result.content)).toContain('Reviewed: all good.');
    },
  );
});

test("load_skill loads a plugin's skill as kit:style; its body (${CLAUDE_PLUGIN_ROOT} filled in) reaches the next request", async () => {
  await scenario([{ toolCalls: [{ id: 'l1', name: 'load_skill', input: { name: 'kit:style' } }] }, { text: 'done' }], async (s) => {
    const dir = kit();
    const r = await s.run(['-p', 'use the house style', '--plugin-dir', dir]);
    expect(r.code).toBe(0);
    expect(systemText(s.requests[0]!.body)).toContain("- kit:style: The kit's house style");
    expect(JSON.stringify(s.requests[1]!.body)).toContain(`KIT-STYLE-RULES from ${dir}`);
  });
});

test("a plugin's PreToolUse hook blocks a bash call; its script gets CLAUDE_PLUGIN_ROOT in its environment", async () => {
  await scenario([{ toolCalls: [{ id: 'b1', name: 'bash', input: { command: 'echo forbidden-thing' } }] }, { text: 'done' }], async (s) => {
    const dir = kit();
    const r = await s.run(['-p', 'run it', '--plugin-dir', dir, '--allowedTools', 'Bash(echo:*)'], { env: TRUSTED_ENV });
    expect(r.code).toBe(0);
    const result = s.requests[1]!.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain('kit guard blocks this bash call');
    expect(readFileSync(path.join(dir, 'hook-saw-root.txt'), 'utf8')).toBe(dir);
    // `/hooks` lists the plugin's hook with its file and line.
    const listing = await s.run(['-p', '/hooks', '--plugin-dir', dir]);
    expect(listing.stdout).toContain(`${path.join(dir, 'hooks', 'hooks.json')} (Claude Code plugin kit)`);
    expect(listing.stdout).toMatch(new RegExp(`PreToolUse \\[Bash\\]: "${dir}"/scripts/guard\\.sh`));
    expect(listing.stdout).toContain(`${path.join(dir, 'hooks', 'hooks.json')}:1:`);
  });
}, 40_000);

test("a plugin's MCP server starts without workspace trust; its tools are mcp__plugin_kit_everything__*, and its process has CLAUDE_PLUGIN_ROOT", async () => {
  await scenario(
    [
      {
        toolCalls: [
          { id: 'm1', name: 'mcp__plugin_kit_everything__echo', input: { message: 'hi from kit' } },
          { id: 'm2', name: 'mcp__plugin_kit_everything__get-env', input: {} },
        ],
      },
      { text: 'done' },
    ],
    async (s) => {
      const dir = kit(true);
      mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
      writeFileSync(path.join(s.home, '.mewcode', 'config.yaml'), stringify({ mcp: { startup_wait_ms: 20_000 } }));
      const r = await s.run(['-p', 'use the server', '--plugin-dir', dir, '--allowedTools', 'mcp__plugin_kit_everything']);
      expect(r.code).toBe(0);
      const results = s.requests[1]!.body.messages.at(-1).content;
      expect(results[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'm1', content: 'Echo: hi from kit', is_error: false });
      expect(results[1]).toMatchObject({ tool_use_id: 'm2', is_error: false });
      expect(String(results[1].content)).toContain(`"CLAUDE_PLUGIN_ROOT": "${dir}"`);
    },
  );
}, 40_000);

test('bad plugins are named with their file and reason, and the good plugin still loads: malformed plugin.json, a missing path, a name clash, a missing hook script', async () => {
  await scenario([{ toolCalls: [{ id: 'g1', name: 'glob', input: { pattern: '*.md' } }] }, { text: 'done' }], async (s) => {
    const good = kit();
    const malformed = tempDir('mewcode-claude-plugin-bad-');
    write(path.join(malformed, '.claude-plugin', 'plugin.json'), '{ "name": "broken", ');
    const clash = tempDir('mewcode-claude-plugin-clash-');
    write(path.join(clash, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'kit' }));
    write(path.join(clash, 'commands', 'other.md'), 'Other\n');
    const partial = tempDir('mewcode-claude-plugin-partial-');
    write(path.join(partial, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'partial', commands: './nowhere', hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/scripts/gone.sh' }] }] } }));
    write(path.join(partial, 'agents', 'helper.md'), '---\ndescription: Helps\n---\nHelp.\n');
    const r = await s.run(['-p', '/kit:hello Alice Bob', '--plugin-dir', good, '--plugin-dir', malformed, '--plugin-dir', clash, '--plugin-dir', partial], { env: TRUSTED_ENV });
    expect(r.code).toBe(0);
    expect(sentText(s.requests[0]!)).toContain('Hello Alice and Bob!');
    expect(r.stderr).toContain(`${path.join(malformed, '.claude-plugin', 'plugin.json')}: not valid JSON`);
    expect(r.stderr).toContain(`${clash}: the plugin name "kit" is already used by kit (${good})`);
    expect(r.stderr).toContain(`${path.join(partial, 'nowhere')}: named by "commands" in plugin.json, but it does not exist`);
    expect(r.stderr).toContain(`hooks.PreToolUse[0].hooks[0]: its script ${path.join(partial, 'scripts', 'gone.sh')} does not exist; this hook is not loaded`);
    expect(systemText(s.requests[0]!.body) + JSON.stringify(s.requests[0]!.body.tools)).toContain('partial:helper');
    // The hook whose script is missing was not loaded: the tool call ran no failing hook.
    expect(r.stderr).not.toMatch(/hook .* failed/);
    expect(s.requests).toHaveLength(2);
  });
}, 40_000);

test('mewcode doctor --plugin-dir lists each plugin with what it contributes, and a broken one with its file and reason', async () => {
  await scenario([], async (s) => {
    // Doctor boots the plugins as a run would: a disabled server is counted but never started.
    const good = kit();
    write(path.join(good, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], disabled: true } } }));
    const malformed = tempDir('mewcode-claude-plugin-bad-');
    write(path.join(malformed, '.claude-plugin', 'plugin.json'), '[1, 2]');
    const r = await s.run(['doctor', '--plugin-dir', good, '--plugin-dir', malformed]);
    expect({ stderr: r.stderr, signal: r.signal }).toEqual({ stderr: '', signal: null });
    expect(r.stdout).toMatch(/ok\s+claude-plugins\s+kit 1\.2\.0 \(plugin-dir, .*\): 1 command, 1 agent, 1 skill, 1 hook, 1 MCP server/);
    expect(r.stdout).toMatch(/fail\s+claude-plugins\s+.*: not loaded/);
    expect(r.stdout).toContain(`${path.join(malformed, '.claude-plugin', 'plugin.json')}: plugin.json must be a JSON object, not a list; the plugin is not loaded`);
  });
}, 40_000);

test("a plugin skill answers to a bare /<skill> too while no other command has that name (as Claude Code's plugin skills do); a user's command of that name keeps it", async () => {
  await scenario([{ text: 'one' }, { text: 'two' }], async (s) => {
    const dir = kit();
    const bare = await s.run(['-p', '/style tabs please', '--plugin-dir', dir]);
    expect(bare.stderr).toBe('');
    expect(bare.code).toBe(0);
    expect(sentText(s.requests[0]!)).toContain('Use the "kit:style" skill');
    write(path.join(s.cwd, '.claude', 'commands', 'style.md'), 'MY-OWN-STYLE $ARGUMENTS\n');
    const own = await s.run(['-p', '/style x', '--plugin-dir', dir]);
    expect(own.code).toBe(0);
    expect(sentText(s.requests[1]!)).toBe('MY-OWN-STYLE x');
  });
}, 60_000);
