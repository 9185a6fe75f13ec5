/**
 * OAuth for remote servers (issue 11 item 7) against a local OAuth-protected server built from
 * the SDK's own server-side auth helpers (fixtures/oauth-server.mjs): the 401 starts the flow,
 * the user is shown the authorisation URL, the browser's way back reaches MewCode's loopback
 * callback, the tokens are stored with mode 0600 and used by the next run without asking.
 */
import { afterAll, afterEach, expect, test } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { oauthStorePath } from '../../../plugins/mcp/oauth.js';
import type { ToolMessage } from '../../../types/messages.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { runPrompt } from '../../support/boot.js';
import { bootMcp, mcpProject, removeTempDirs, settled, waitFor } from './helpers.js';

const OAUTH_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'oauth-server.mjs');
const children: ChildProcess[] = [];
afterEach(removeTempDirs);
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const serverOutput: string[] = [];

async function startOAuthServer(env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [OAUTH_SERVER], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      serverOutput.push(chunk.toString());
      const match = /listening (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the OAuth server exited (${code})`)));
  });
}

test('a 401 with OAuth metadata: authorise once in the browser, then the tools work; the next run refreshes the expired token without asking', async () => {
  const base = await startOAuthServer({ OAUTH_TOKEN_TTL_MS: '1500' });
  const project = mcpProject({ mcp: { startup_wait_ms: 100 }, mcp_servers: { secure: { type: 'http', url: `${base}/mcp` } } });
  const first = await bootMcp(project, [useTools([call('mcp__secure__whoami', {})]), say('ok')]);
  try {
    await waitFor(() => first.reporter.notices.some((n) => n.includes('needs authorisation')), 10_000, 'the authorisation notice');
    const notice = first.reporter.notices.find((n) => n.includes('needs authorisation'))!;
    const authorizationUrl = /Open this URL in a browser:\n {2}(\S+)/.exec(notice)![1]!;
    expect(new URL(authorizationUrl).searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The "browser": the demo provider approves at once and redirects to MewCode's callback.
    const page = await fetch(authorizationUrl, { redirect: 'follow' });
    expect(await page.text()).toContain('MewCode is authorised');
    const [status] = await settled(first.kernel);
    expect(status).toMatchObject({ name: 'secure', state: 'connected', transport: 'http', toolCount: 1 });
    await runPrompt(first.kernel, 'who');
    const last = first.model.requests[1]!.messages.at(-1) as ToolMessage;
    expect(last.results[0]).toMatchObject({ isError: false, content: 'authorised client yes' });
  } finally {
    await first.kernel.shutdown();
  }

  const store = oauthStorePath(project.home);
  expect(statSync(store).mode & 0o777).toBe(0o600);
  const saved = JSON.parse(readFileSync(store, 'utf8'));
  expect(saved.servers[`${base}/mcp`].tokens.access_token).toEqual(expect.any(String));

  await new Promise((resolve) => setTimeout(resolve, 1600)); // the access token expires
  const second = await bootMcp(project, [say('x')]);
  try {
    const [status] = await settled(second.kernel);
    expect(status!.lastError).toBeUndefined();
    expect(status!.state).toBe('connected');
    expect(second.reporter.notices.filter((n) => n.includes('needs authorisation'))).toEqual([]);
    expect(serverOutput.join('')).toContain('refreshed');
    const refreshed = JSON.parse(readFileSync(store, 'utf8')).servers[`${base}/mcp`].tokens.access_token;
    expect(refreshed).not.toBe(saved.servers[`${base}/mcp`].tokens.access_token);
  } finally {
    await second.kernel.shutdown();
  }
});

test('a forged callback (wrong state) is refused and the authorisation goes on waiting', async () => {
  const base = await startOAuthServer();
  const project = mcpProject({ mcp: { startup_wait_ms: 100 }, mcp_servers: { secure: { type: 'http', url: `${base}/mcp` } } });
  const { kernel, reporter } = await bootMcp(project, [say('x')]);
  try {
    await waitFor(() => reporter.notices.some((n) => n.includes('needs authorisation')), 10_000, 'the authorisation notice');
    const url = new URL(/Open this URL in a browser:\n {2}(\S+)/.exec(reporter.notices.find((n) => n.includes('needs authorisation'))!)![1]!);
    const callback = new URL(url.searchParams.get('redirect_uri')!);
    callback.search = new URLSearchParams({ code: 'stolen', state: 'not-the-one' }).toString();
    const forged = await fetch(callback);
    expect(forged.status).toBe(400);
    const page = await fetch(url, { redirect: 'follow' });
    expect(page.status).toBe(200);
    const [status] = await settled(kernel);
    expect(status!.state).toBe('connected');
  } finally {
    await kernel.shutdown();
  }
});
