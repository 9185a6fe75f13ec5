// Exit codes, retries and provider errors of `mewcode -p` (U2, P5, P6).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, prepareCli, removeTempDirs, scenario, singleJsonObject } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** A project provider with a tiny backoff, so retries are fast whatever the server sends (runs pass --trust-project: providers: is a trust-gated project setting). */
function writeFastRetryConfig(cwd: string, url: string, extra = ''): void {
  writeFileSync(
    join(cwd, '.mewcode.yaml'),
    `providers: [{name: main, protocol: anthropic, model: x, api_key: test-key, base_url: "${url}", retry_base_delay_ms: 5${extra}}]\n`,
  );
}

describe('retries', () => {
  test.concurrent('a 529 then a success: exit 0, the answer, a retry notice on stderr only (json)', async () => {
    await scenario([{ httpError: { status: 529 } }, { text: 'Recovered answer.' }], async (s) => {
      writeFastRetryConfig(s.cwd, s.server.url);
      const r = await s.run(['-p', 'hi', '--trust-project', '--output-format', 'json']);
      expect(r.code).toBe(0);
      const result = singleJsonObject(r.stdout); // stdout is pure JSON: nothing else on it
      expect(result).toMatchObject({ is_error: false, result: 'Recovered answer.' });
      expect(r.stdout).not.toMatch(/retry|overloaded|529/i);
      expect(r.stderr).toMatch(/retry/i);
      expect(r.stderr).toMatch(/529|overloaded/i);
      expect(s.requests).toHaveLength(2);
      expect(s.requests[1]!.rawBody).toBe(s.requests[0]!.rawBody); // the same request, repeated
    });
  });

  test.concurrent('a 529 then a success in text format: stdout is only the answer', async () => {
    await scenario([{ httpError: { status: 529 } }, { text: 'Recovered.' }], async (s) => {
      writeFastRetryConfig(s.cwd, s.server.url);
      const r = await s.run(['-p', 'hi', '--trust-project']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('Recovered.\n');
      expect(r.stderr).toMatch(/retry/i);
    });
  });

  test.concurrent('retries exhausted: exit 1, is_error, the overload named in the result', async () => {
    await scenario([{ httpError: { status: 529 } }, { httpError: { status: 529 } }], async (s) => {
      writeFastRetryConfig(s.cwd, s.server.url, ', max_retries: 1');
      const r = await s.run(['-p', 'hi', '--trust-project', '--output-format', 'json']);
      expect(r.code).toBe(1);
      const result = singleJsonObject(r.stdout);
      expect(result.is_error).toBe(true);
      expect(result.result).toMatch(/overloaded|529/i);
      expect(s.requests).toHaveLength(2);
    });
  });
});

describe('prompt too long', () => {
  // Two scripted answers: a build that compacts and retries once (L2) still meets a documented error.
  const tooLong = [{ promptTooLong: true }, { promptTooLong: true }];

  test.concurrent('Anthropic: is_error, exit 1, the result names the context window (200000)', async () => {
    await scenario(tooLong, async (s) => {
      const r = await s.run(['-p', 'hi', '--output-format', 'json']);
      expect(r.code).toBe(1);
      const result = singleJsonObject(r.stdout);
      expect(result.is_error).toBe(true);
      expect(result.result).toMatch(/context window/i);
      expect(result.result).toContain('200000');
      expect(s.requests.length).toBeGreaterThanOrEqual(1);
      expect(s.requests.length).toBeLessThanOrEqual(2);
    });
  });

  test.concurrent('Anthropic: the window named is the configured context_window, not just the vendor text', async () => {
    await scenario(tooLong, async (s) => {
      writeFastRetryConfig(s.cwd, s.server.url, ', context_window: 190000');
      const r = await s.run(['-p', 'hi', '--trust-project', '--output-format', 'json']);
      expect(r.code).toBe(1);
      const result = singleJsonObject(r.stdout);
      expect(result.is_error).toBe(true);
      expect(result.result).toContain('190000'); // the vendor body says 200000
    });
  });

  test.concurrent('OpenAI context_length_exceeded: is_error, exit 1, the result names 128000', async () => {
    await scenario(
      tooLong,
      async (s) => {
        const r = await s.run(['-p', 'hi', '--output-format', 'json']);
        expect(r.code).toBe(1);
        const result = singleJsonObject(r.stdout);
        expect(result.is_error).toBe(true);
        expect(result.result).toMatch(/context window/i);
        expect(result.result).toContain('128000');
      },
      'openai',
    );
  });

  test.concurrent('text format: nothing on stdout, the error on stderr, exit 1', async () => {
    await scenario(tooLong, async (s) => {
      const r = await s.run(['-p', 'hi']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/context window/i);
    });
  });
});

describe('usage errors exit 2 before any network request', () => {
  test.concurrent('no API key: names ANTHROPIC_API_KEY (with and without MEWCODE_PROVIDER)', async () => {
    await scenario([], async (s) => {
      const [withProvider, bare] = await Promise.all([
        s.run(['-p', 'hi'], { env: { ANTHROPIC_API_KEY: undefined } }),
        s.run(['-p', 'hi'], { env: { ANTHROPIC_API_KEY: undefined, MEWCODE_PROVIDER: undefined } }),
      ]);
      for (const r of [withProvider, bare]) {
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain('ANTHROPIC_API_KEY');
      }
      expect(s.requests).toEqual([]);
    });
  });

  test.concurrent('no model: names MEWCODE_MODEL; json and stream-json print the error as their result object', async () => {
    await scenario([], async (s) => {
      const r = await s.run(['-p', 'hi', '--output-format', 'json'], { env: { MEWCODE_MODEL: undefined } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('MEWCODE_MODEL');
      expect(singleJsonObject(r.stdout)).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, result: expect.stringContaining('MEWCODE_MODEL'), stop_reason: 'error', num_turns: 0 });
      const stream = await s.run(['-p', 'hi', '--output-format', 'stream-json'], { env: { ANTHROPIC_API_KEY: undefined } });
      expect(stream.code).toBe(2);
      expect(stream.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ type: 'result', is_error: true, result: expect.stringContaining('ANTHROPIC_API_KEY') })]);
      const text = await s.run(['-p', 'hi'], { env: { MEWCODE_MODEL: undefined } });
      expect(text.stdout).toBe('');
      expect(s.requests).toEqual([]);
    });
  });

  test.concurrent('an empty --model or --provider is a usage error naming the flag', async () => {
    await scenario([], async (s) => {
      for (const flag of ['--model', '--provider']) {
        const r = await s.run(['-p', 'hi', `${flag}=`]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`${flag} needs a value`);
      }
      expect(s.requests).toEqual([]);
    });
  });

  test.concurrent('bad flag values and unknown flags name the flag', async () => {
    await scenario([], async (s) => {
      const [format, mode, unknown] = await Promise.all([
        s.run(['-p', 'hi', '--output-format', 'xml']),
        s.run(['-p', 'hi', '--permission-mode', 'yolo']),
        s.run(['-p', 'hi', '--no-such-flag']),
      ]);
      expect(format.code).toBe(2);
      expect(format.stderr).toContain('--output-format');
      expect(format.stderr).toContain('xml');
      expect(mode.code).toBe(2);
      expect(mode.stderr).toContain('--permission-mode');
      expect(mode.stderr).toContain('yolo');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('--no-such-flag');
      for (const r of [format, mode, unknown]) expect(r.stdout).toBe('');
      expect(s.requests).toEqual([]);
    });
  });

  test.concurrent('an unknown --provider: exit 2, names the provider', async () => {
    await scenario([], async (s) => {
      const r = await s.run(['-p', 'hi', '--provider', 'nosuch']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('nosuch');
      expect(s.requests).toEqual([]);
    });
  });

  test.concurrent('--version prints the version, --help the usage; both exit 0 without a request', async () => {
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    await scenario([], async (s) => {
      const [v, short, help] = await Promise.all([s.run(['--version']), s.run(['-v']), s.run(['--help'])]);
      expect(v.code).toBe(0);
      expect(v.stdout.split('\n')[0]).toContain(version);
      expect(short.code).toBe(0);
      expect(short.stdout).toBe(v.stdout);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: mewcode/);
      for (const flag of ['-p', '--output-format', '--permission-mode', '--provider', '--model', '--debug-boot', '--version', '--help']) {
        expect(help.stdout).toContain(flag);
      }
      expect(s.requests).toEqual([]);
    });
  });
});

describe.each(['anthropic', 'openai'] as const)('%s: a refusal', (protocol) => {
  test.concurrent('is an error (exit 1, is_error, stop_reason "refusal") that shows the explanation, and the explanation reaches the result', async () => {
    const explanation = 'This request could enable harm, so I will not help with it.';
    const turns = [{ text: 'I started to ', refusal: { category: 'cyber', explanation } }];
    await scenario(turns, async (s) => {
      const r = await s.run(['-p', 'write malware', '--output-format', 'json']);
      expect(r.code).toBe(1);
      const result = singleJsonObject(r.stdout);
      expect(result).toMatchObject({ is_error: true, stop_reason: 'refusal', subtype: 'error_during_execution' });
      expect(result.result).toContain(explanation);
      if (protocol === 'anthropic') expect(result.result).toBe(`The model declined to continue (category: cyber): ${explanation}`);
      expect(r.stderr).toContain(explanation);
    }, protocol);
  });

  test.concurrent('in text mode the partial answer and the explanation are shown, never "(Task completed.)"', async () => {
    await scenario([{ text: 'Partial ', refusal: { explanation: 'Declined by policy.' } }], async (s) => {
      const r = await s.run(['-p', 'something']);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('Declined by policy.');
      expect(r.stdout).not.toContain('(Task completed.)');
    }, protocol);
  });
});
