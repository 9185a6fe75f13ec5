/** The README's query() example (docs/examples/query.mjs) runs against the built package and the scripted model. */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { anthropicEnv, prepareCli, removeTempDirs, REPO_ROOT, tempDir } from '../cli/helpers.js';
import { startScriptedServer } from '../scripted-server/index.js';

afterEach(removeTempDirs);

test('docs/examples/query.mjs: its canUseTool lets the Markdown file be written and refuses the script; the answer and result are printed', async () => {
  await prepareCli(); // the example imports the built `mewcode` package
  const server = await startScriptedServer({
    turns: [
      { toolCalls: [{ id: 'w1', name: 'write_file', input: { file_path: 'summary.md', content: '# A project with one readme\n' } }] },
      { toolCalls: [{ id: 'w2', name: 'write_file', input: { file_path: 'run.sh', content: 'rm -rf ~\n' } }] },
      { text: 'A project with one readme.' },
    ],
  });
  const cwd = tempDir('mewcode-example-cwd-');
  const home = tempDir('mewcode-example-home-');
  writeFileSync(path.join(cwd, 'README.txt'), 'hi\n');
  try {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'docs', 'examples', 'query.mjs')], { cwd, env: anthropicEnv(server, home) as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect({ code, stderr }).toMatchObject({ code: 0 });
    expect(stdout).toBe('A project with one readme.\nsuccess: 3 turns, 60 output tokens\n');
    expect(stderr).toContain('[write_file] {"file_path":"summary.md"');
    expect(readFileSync(path.join(cwd, 'summary.md'), 'utf8')).toBe('# A project with one readme\n');
    expect(existsSync(path.join(cwd, 'run.sh'))).toBe(false);
    const [written] = server.requests[1]!.body.messages.at(-1).content;
    expect(written).toMatchObject({ tool_use_id: 'w1', is_error: false });
    const [refused] = server.requests[2]!.body.messages.at(-1).content;
    expect(refused).toMatchObject({ tool_use_id: 'w2', is_error: true });
    expect(JSON.stringify(refused.content)).toContain('only Markdown files may be written');
    expect(server.requests[0]!.body.system.map((b: { text: string }) => b.text).join('\n')).toContain('Keep every answer to one short paragraph.');
  } finally {
    await server.close();
  }
});

test('the README shows exactly docs/examples/query.mjs (after its two lines on where it lives and how to run it)', () => {
  const example = readFileSync(path.join(REPO_ROOT, 'docs', 'examples', 'query.mjs'), 'utf8').split('\n').slice(2).join('\n').trim();
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /<!-- the test suite runs this as docs\/examples\/query\.mjs[^\n]*-->\n```js\n([\s\S]*?)\n```/.exec(readme);
  expect(block?.[1]?.trim()).toBe(example);
});
