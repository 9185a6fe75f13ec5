/**
 * The built `mewcode` with the default plugins, the real Anthropic SDK and the scripted server:
 * a folder copied from a Claude Code skills repository loads and activates unchanged; the catalog
 * is in the stable (cached) system block and the body only in the environment block after
 * load_skill; `-p "/name args"` expands the skill with its arguments.
 */
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { lastUserTexts, prepareCli, removeTempDirs, scenario } from '../../cli/helpers.js';

const CORPUS = path.resolve('test/fixtures/skills/corpus');

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const copy = (folder: string, to: string): void => {
  mkdirSync(path.dirname(to), { recursive: true });
  cpSync(path.join(CORPUS, folder), to, { recursive: true });
};

test.concurrent('a Claude Code skill folder in ~/.claude/skills: catalog in the cached block, body after load_skill, in the environment block', async () => {
  await scenario(
    [{ toolCalls: [{ id: 'toolu_1', name: 'load_skill', input: { name: 'pdf', arguments: 'form.pdf' } }] }, { text: 'Filled.' }],
    async (s) => {
      copy('pdf', path.join(s.home, '.claude', 'skills', 'pdf'));
      const r = await s.run(['-p', 'fill in form.pdf']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('Filled.\n');
      const [first, second] = s.requests.map((q) => q.body);
      expect(first.system[0].cache_control).toEqual({ type: 'ephemeral' });
      expect(first.system[0].text).toContain('- pdf: Comprehensive PDF manipulation toolkit for extracting text and tables');
      expect(JSON.stringify(first)).not.toContain('PDF Processing Guide');
      expect(first.tools.map((t: any) => t.name)).toContain('load_skill');
      expect(second.system[0]).toEqual(first.system[0]);
      const environment: string = second.system[1].text;
      expect(environment).toContain('## Skill: pdf\nBase directory (paths in the skill are relative to it): ' + path.join(s.home, '.claude', 'skills', 'pdf'));
      expect(environment).toContain('# PDF Processing Guide');
      expect(environment).toContain('python scripts/check_fillable_fields.py <file.pdf>');
      expect(environment).toMatch(/## User Request\n\nform\.pdf$/);
    },
  );
});

test.concurrent('-p "/code-review src/app.ts" passes the arguments into the skill ($ARGUMENTS) and runs the prompt', async () => {
  await scenario([{ text: 'Looks fine.' }], async (s) => {
    copy('code-review', path.join(s.cwd, '.mewcode', 'skills', 'code-review'));
    const r = await s.run(['-p', '/code-review src/app.ts']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Looks fine.\n');
    const body = s.requests[0]!.body;
    expect(body.system[1].text).toContain('This skill is designed to use only these tools: read_file, grep, glob.');
    expect(body.system[1].text).toContain('Review src/app.ts with care.');
    expect(lastUserTexts(body).join('\n')).toContain('Use the "code-review" skill');
    expect(lastUserTexts(body).join('\n')).toContain('src/app.ts');
  });
});

test.concurrent('a project skill with scripts needs trust: skipped loudly without it, loaded and runnable as /pdf with --trust-project', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    copy('pdf', path.join(s.cwd, '.claude', 'skills', 'pdf'));
    const untrusted = await s.run(['-p', '/pdf form.pdf']);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toContain(`skills: ${path.join(s.cwd, '.claude', 'skills', 'pdf', 'SKILL.md')}: skipped: the project's skill "pdf" carries scripts`);
    expect(untrusted.stderr).toContain('unknown command /pdf');
    const trusted = await s.run(['-p', '/pdf form.pdf', '--trust-project']);
    expect(trusted.code).toBe(0);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.body.system[1].text).toContain('## User Request\n\nform.pdf');
  });
});

test.concurrent('/help lists skill commands; -p "/research-fork …" runs the fork-mode skill in an isolated sub-agent and prints its answer', async () => {
  await scenario([{ text: 'main is in src/main.ts' }], async (s) => {
    copy('research-fork', path.join(s.cwd, '.mewcode', 'skills', 'research-fork'));
    const help = await s.run(['-p', '/help']);
    expect(help.stdout).toMatch(/^ {2}\/research-fork +Research a question in the codebase in an isolated sub-agent and report back\. \[skill, fork\]$/m);
    const fork = await s.run(['-p', '/research-fork where is main?']);
    expect(fork.stderr).toBe('');
    expect(fork.code).toBe(0);
    expect(fork.stdout).toBe('main is in src/main.ts\n');
    expect(s.requests).toHaveLength(1);
    const body = s.requests[0]!.body;
    // Isolated: only its task; the skill (with the arguments) in its system prompt; only its allowed tools (+ load_skill); its model.
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'where is main?' }] }]);
    expect(JSON.stringify(body.system)).toContain('Research this question and answer in five lines or fewer: where is main?');
    expect(body.tools.map((t: any) => t.name).sort()).toEqual(['glob', 'grep', 'load_skill', 'read_file']);
    expect(body.model).toBe('fast');
  });
});

test.concurrent('OpenAI protocol: the catalog in the leading system message, the body only after load_skill', async () => {
  await scenario(
    [{ toolCalls: [{ id: 'call_1', name: 'load_skill', input: { name: 'commit' } }] }, { text: 'Committed.' }],
    async (s) => {
      copy('commit', path.join(s.cwd, '.agents', 'skills', 'commit'));
      const r = await s.run(['-p', 'commit this']);
      expect(r.code).toBe(0);
      const [first, second] = s.requests.map((q) => JSON.stringify(q.body.messages.filter((m: any) => m.role === 'system')));
      expect(first).toContain('- commit: Write a Conventional Commits message');
      expect(first).not.toContain('Run `git diff --staged`');
      expect(second).toContain('Run `git diff --staged`');
      expect(s.requests[1]!.body.tools.map((t: any) => t.function.name)).toContain('load_skill');
    },
    'openai',
  );
});
