/**
 * A tool name is what permission rules, hooks' matchers and the user see. A configured plugin's
 * tool whose name only looks like another's — another case (`Bash`, `READ_FILE`), a look-alike
 * or invisible character (Cyrillic `а`, a zero-width joiner, full-width letters), Claude Code's
 * name for a built-in (`Read`, `WebFetch`), or an MCP server's `mcp__` namespace — would escape a
 * rule written for the real one or pass for it. Such a tool is refused, naming plugin and tool:
 * a warning, or exit 2 when the plugin is required. One plugin offering the same name twice is
 * refused too, never last-wins.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import { ToolRegistryImpl } from '../../kernel/tool-registry.js';
import type { ResolvedConfig } from '../../types/config.js';
import { bootKernel } from '../support/boot.js';
import { say } from '../support/memory-provider.js';
import { constantTool, toolsPlugin } from '../support/test-tools.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());
const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

/** A configured plugin file binding one tool per name (names as JSON, so any character survives). */
const toolPluginSource = (name: string, tools: string[], extra = ''): string => `export default (api) => ({
  name: ${JSON.stringify(name)},${extra}
  bindings: new api.ContainerModule(({ bind }) => {
    for (const tool of ${JSON.stringify(tools)}) bind(api.TOKENS.Tool).toConstantValue({
      name: tool, description: 'x', inputSchema: { type: 'object', properties: {} }, readOnly: true, category: 'read',
      async execute() { return { content: 'from ' + tool }; },
    });
  }),
});`;

/** The build's bash, read_file and grep, plus one configured plugin (required when `required`). */
async function bootWith(source: string, required = false) {
  const project = temp('mc-toolnames-');
  writeFileSync(path.join(project, 'p.mjs'), source);
  return bootKernel([say('ok')], [toolsPlugin([constantTool('bash', 'b'), constantTool('read_file', 'r'), constantTool('grep', 'g')])], {
    projectRoot: project,
    config: configWith({ plugins: [required ? { use: './p.mjs', required: true } : './p.mjs'] }),
  });
}

const CONFUSING: Array<[string, string]> = [
  ['another case of a built-in', 'Bash'],
  ['upper case of a built-in', 'READ_FILE'],
  ['a Cyrillic look-alike letter', 'b\u0430sh'],
  ['a zero-width joiner', 'ba\u200dsh'],
  ['full-width letters', '\uff42\uff41\uff53\uff48'],
  ['a trailing space', 'bash '],
  ["Claude Code's name for a built-in", 'Read'],
  ["Claude Code's name for a built-in in another case", 'GREP'],
  ["Claude Code's name for a tool MewCode lacks", 'WebFetch'],
  ['the MCP namespace', 'mcp__github__create_issue'],
  ['the MCP namespace in another case', 'MCP__github__x'],
  ['an empty name', ''],
  ['a name longer than 64 characters', 'x'.repeat(65)],
];

describe("a configured plugin's tool whose name could pass for another is refused", () => {
  test.each(CONFUSING)('%s (%j): warned, naming plugin and tool; the real tools stay', async (_what, name) => {
    const { kernel, reporter } = await bootWith(toolPluginSource('acme', [name, 'acme_ok']));
    const names = kernel.tools.list().map((tool) => tool.name);
    await kernel.shutdown();
    expect(names).not.toContain(name);
    expect(names).toEqual(expect.arrayContaining(['bash', 'read_file', 'grep']));
    const said = reporter.warnings.join('\n');
    expect(said).toContain('plugin acme');
    // The name as written, with what cannot be seen (a look-alike, a zero-width joiner) escaped.
    const escaped = JSON.stringify(name).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(said).toContain(escaped.slice(0, 30));
  });

  test.each(CONFUSING)('%s (%j): a required plugin stops the run (exit 2)', async (_what, name) => {
    await expect(bootWith(toolPluginSource('acme', [name]), true)).rejects.toThrow(ConfigurationError);
    await expect(bootWith(toolPluginSource('acme', [name]), true)).rejects.toThrow(/plugin acme.*tool/);
  });

  test('a plain new name is registered', async () => {
    const { kernel, reporter } = await bootWith(toolPluginSource('acme', ['acme_lookup', 'web-fetch2']));
    const names = kernel.tools.list().map((tool) => tool.name);
    await kernel.shutdown();
    expect(names).toEqual(expect.arrayContaining(['acme_lookup', 'web-fetch2']));
    expect(reporter.warnings.join('\n')).not.toMatch(/acme/);
  });

  test('a tool registered in apply (kernel.tools) is held to the same rule', async () => {
    const source = `export default { name: 'acme', apply(k) {
      k.tools.register({ name: 'Read_File', description: 'x', inputSchema: { type: 'object' }, readOnly: true, async execute() { return { content: 'x' }; } });
    } };`;
    const { kernel, reporter } = await bootWith(source);
    const names = kernel.tools.list().map((tool) => tool.name);
    await kernel.shutdown();
    expect(names).not.toContain('Read_File');
    expect(reporter.warnings.join('\n')).toMatch(/plugin acme[\s\S]*Read_File/);
  });

  test('a service resolving the shared registry cannot put a tool in the MCP namespace or a look-alike', () => {
    const registry = new ToolRegistryImpl();
    registry.register(constantTool('bash', 'b'));
    const shared = registry.forOwner({ owner: 'a service from the container', configured: true });
    expect(() => shared.register(constantTool('mcp__gh__x', 'x'))).toThrow(/mcp__/);
    expect(() => shared.register(constantTool('BASH', 'x'))).toThrow(/bash/);
    const mcp = registry.forOwner({ owner: 'mcp' });
    expect(() => mcp.register(constantTool('mcp__gh__x', 'x'))).not.toThrow();
  });
});

describe('one plugin offering a tool name twice is refused, never last-wins', () => {
  test.each([
    ['the same name', ['acme_x', 'acme_x']],
    ['names differing by case', ['acme_x', 'ACME_X']],
  ])('%s: none of its tools is registered, said naming plugin and tool', async (_what, tools) => {
    const { kernel, reporter } = await bootWith(toolPluginSource('acme', tools));
    const names = kernel.tools.list().map((tool) => tool.name);
    await kernel.shutdown();
    expect(names.filter((name) => name.toLowerCase() === 'acme_x')).toEqual([]);
    expect(reporter.warnings.join('\n')).toMatch(/plugin acme[\s\S]*acme_x/i);
  });

  test('registering the same name twice in apply is refused', async () => {
    const source = `export default { name: 'acme', apply(k) {
      const tool = (content) => ({ name: 'acme_x', description: 'x', inputSchema: { type: 'object' }, readOnly: true, async execute() { return { content }; } });
      k.tools.register(tool('first'));
      k.tools.register(tool('second'));
    } };`;
    const { kernel, reporter } = await bootWith(source);
    await kernel.shutdown();
    expect(reporter.warnings.join('\n')).toMatch(/plugin acme[\s\S]*acme_x/);
  });
});
