// What the CLI sends: the prompt (argument and/or stdin), provider and model selection, the
// system prompt parts (U3, K3) and the plan-mode reminder, checked on the logged requests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastUserTexts, prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

describe('the prompt', () => {
  test.concurrent('from stdin: echo "question" | mewcode -p', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const r = await s.run(['-p'], { input: 'question\n' });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('ok\n');
      expect(s.requests).toHaveLength(1);
      expect(s.requests[0]!.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'question' }] }]);
    });
  });

  test.concurrent('an argument and stdin are joined, the argument first', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const r = await s.run(['-p', 'Summarise this log:'], { input: 'line one\nline two\n' });
      expect(r.code).toBe(0);
      const texts = lastUserTexts(s.requests[0]!.body);
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/^Summarise this log:\s+line one\nline two$/);
    });
  });

  test.concurrent('no prompt at all (-p, empty stdin): exit 2, no request', async () => {
    await scenario([], async (s) => {
      const r = await s.run(['-p']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/prompt/i);
      expect(s.requests).toEqual([]);
    });
  });
});

describe('flags win over the environment', () => {
  test.concurrent('MEWCODE_MODEL=a --model b sends model b', async () => {
    await scenario([{ text: 'ok' }, { text: 'ok' }], async (s) => {
      const [flag, envOnly] = await Promise.all([
        s.run(['-p', 'hi', '--model', 'b'], { env: { MEWCODE_MODEL: 'a' } }),
        s.run(['-p', 'hi'], { env: { MEWCODE_MODEL: 'a' } }),
      ]);
      expect(flag.code).toBe(0);
      expect(envOnly.code).toBe(0);
      expect(s.requests.map((r) => r.body.model).sort()).toEqual(['a', 'b']);
    });
  });

  test.concurrent('--provider beats MEWCODE_PROVIDER in both directions', async () => {
    await scenario([{ text: 'ok' }, { text: 'ok' }], async (s) => {
      const both = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${s.server.url}/v1` };
      const toAnthropic = await s.run(['-p', 'hi', '--provider', 'anthropic'], { env: { ...both, MEWCODE_PROVIDER: 'openai' } });
      expect(toAnthropic.code).toBe(0);
      const toOpenai = await s.run(['-p', 'hi', '--provider', 'openai', '--model', 'gpt-y'], { env: { ...both, MEWCODE_PROVIDER: 'anthropic' } });
      expect(toOpenai.code).toBe(0);
      expect(s.requests.map((r) => [r.path, r.body.model])).toEqual([
        ['/v1/messages', 'x'],
        ['/v1/chat/completions', 'gpt-y'],
      ]);
    });
  });

  test.concurrent('--provider picks a configured provider by name', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      writeFileSync(
        join(s.cwd, '.mewcode.yaml'),
        [
          'providers:',
          `  - {name: claude, protocol: anthropic, model: m-claude, api_key: k, base_url: "${s.server.url}"}`,
          `  - {name: gpt, protocol: openai, model: m-gpt, api_key: k, base_url: "${s.server.url}/v1"}`,
          '',
        ].join('\n'),
      );
      const r = await s.run(['-p', 'hi', '--trust-project', '--provider', 'gpt'], { env: { MEWCODE_PROVIDER: undefined, MEWCODE_MODEL: undefined } });
      expect(r.code).toBe(0);
      expect(s.requests.map((q) => [q.path, q.body.model])).toEqual([['/v1/chat/completions', 'm-gpt']]);
    });
  });
});

function git(cwd: string, home: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=MewCode Test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
    stdio: 'ignore',
  });
}

function dateStrings(now: Date): string[] {
  const pad = (n: number): string => String(n).padStart(2, '0');
  // The user's local date (the child has no TZ variable, like this process unless TZ is set).
  return [`${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`];
}

describe('system prompt parts (Anthropic)', () => {
  test.concurrent('stable block (cached) has the instructions; environment block (uncached) has cwd, platform, date, git; both stable across requests', async () => {
    await scenario([{ toolCalls: [{ name: 'not_a_real_tool', input: { x: 1 } }] }, { text: 'finished' }], async (s) => {
      // a git repository on a named branch with one commit and an untracked file
      writeFileSync(join(s.cwd, 'tracked.txt'), 'tracked\n');
      git(s.cwd, s.home, 'init', '-q', '-b', 'feature/cli-accept');
      git(s.cwd, s.home, 'add', 'tracked.txt');
      git(s.cwd, s.home, 'commit', '-q', '-m', 'initial');
      writeFileSync(join(s.cwd, 'untracked-note.txt'), 'new\n');
      // project and user instructions
      writeFileSync(join(s.cwd, 'MEWCODE.md'), 'Marker PROJECT-MEWCODE-91: use tabs.\n');
      writeFileSync(join(s.cwd, 'AGENTS.md'), 'Marker PROJECT-AGENTS-92: run make test.\n');
      writeFileSync(join(s.cwd, 'CLAUDE.md'), 'Marker PROJECT-CLAUDE-93: be brief.\n');
      mkdirSync(join(s.home, '.mewcode'));
      writeFileSync(join(s.home, '.mewcode', 'MEWCODE.md'), 'Marker HOME-MEWCODE-94: answer in English.\n');

      const before = dateStrings(new Date());
      const r = await s.run(['-p', 'hi', '--output-format', 'json']);
      const after = dateStrings(new Date());
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).result).toBe('finished');
      expect(s.requests).toHaveLength(2);

      const [first, second] = s.requests.map((q) => q.body);
      for (const body of [first, second]) {
        expect(body.system).toHaveLength(2);
        expect(body.system[0]).toMatchObject({ type: 'text', cache_control: { type: 'ephemeral' } });
        expect(body.system[1].type).toBe('text');
        expect(body.system[1].cache_control).toBeUndefined();
      }
      const stable: string = first.system[0].text;
      const environment: string = first.system[1].text;
      for (const marker of ['PROJECT-MEWCODE-91', 'PROJECT-AGENTS-92', 'PROJECT-CLAUDE-93', 'HOME-MEWCODE-94']) {
        expect(stable).toContain(marker);
        expect(environment).not.toContain(marker);
      }
      expect(environment).toContain(s.cwd);
      expect(environment).toContain(process.platform);
      expect([...before, ...after].some((d) => environment.includes(d))).toBe(true);
      expect(environment).toContain('feature/cli-accept');
      expect(environment).toMatch(/^\s*\?\? untracked-note\.txt\s*$/m);
      expect(environment).not.toMatch(/^\s*\S+ tracked\.txt\s*$/m); // committed and unchanged: no status line
      // the volatile parts stay out of the cached block (instruction headings may name file paths)
      expect(stable).not.toContain('feature/cli-accept');
      expect(stable).not.toContain('untracked-note.txt');

      // K3: byte-identical stable prompt and tool definitions across the requests of a run
      expect(JSON.stringify(second.system[0])).toBe(JSON.stringify(first.system[0]));
      expect(JSON.stringify(second.tools ?? null)).toBe(JSON.stringify(first.tools ?? null));
      // the second request really carried the round trip
      expect(JSON.stringify(second.messages)).toContain('not_a_real_tool');
      expect(JSON.stringify(second.messages)).toContain('"is_error":true');
    });
  });

  test.concurrent('outside a git repository the environment block still has cwd and platform', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const r = await s.run(['-p', 'hi']);
      expect(r.code).toBe(0);
      const body = s.requests[0]!.body;
      expect(body.system).toHaveLength(2);
      expect(body.system[1].text).toContain(s.cwd);
      expect(body.system[1].text).toContain(process.platform);
      expect(body.system[1].text).not.toMatch(/Git branch/i);
    });
  });
});

describe('--permission-mode', () => {
  test.concurrent('plan: the first request carries the plan reminder in its last user message; default does not', async () => {
    await scenario([{ text: 'A plan.' }, { text: 'Done.' }], async (s) => {
      const plan = await s.run(['-p', 'refactor it', '--permission-mode', 'plan']);
      expect(plan.code).toBe(0);
      const normal = await s.run(['-p', 'refactor it']);
      expect(normal.code).toBe(0);
      expect(s.requests).toHaveLength(2);
      const planTexts = lastUserTexts(s.requests[0]!.body);
      expect(planTexts[0]).toBe('refactor it');
      expect(planTexts.join('\n')).toContain('Plan mode is active');
      expect(s.requests[0]!.body.messages.at(-1).role).toBe('user');
      expect(JSON.stringify(s.requests[1]!.body.messages)).not.toContain('Plan mode');
    });
  });
});
