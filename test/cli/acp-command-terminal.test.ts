/**
 * `mewcode acp` with an editor that runs commands in its terminals: a slash command's `!` line
 * runs in an editor terminal as a bash call does, so the editor is shown it as one (a `tool_call`
 * holding the terminal); session/cancel kills that terminal (`terminal/kill`, then `release`),
 * ends the prompt `cancelled` promptly, the line's call `failed`, and no later line runs.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { methodsOf, testEditor } from '../support/acp-test-editor.js';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

afterAll(() => removeTempDirs());

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("session/cancel during a `!` line in the editor's terminal: shown as a call, killed and released, `cancelled` promptly", async () => {
  await scenario([{ text: 'MODEL CALLED' }], async (s) => {
    const commands = path.join(s.home, '.claude', 'commands');
    mkdirSync(commands, { recursive: true });
    writeFileSync(path.join(commands, 'slow.md'), '---\ndescription: slow\nallowed-tools: Bash(sleep:*), Bash(touch:*)\n---\nStatus: !`sleep 4 && touch BANGDONE`\nThen: !`touch SECOND`\nSummarise.\n');
    const bin = await prepareCli();
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(s.env)) if (value !== undefined) env[key] = value;
    const child = spawn(process.execPath, [bin, 'acp'], { cwd: s.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const { app, state } = testEditor();
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 25_000);
    try {
      const { updates, stopReason, elapsed } = await app.connectWith(stream, async (agent) => {
        await agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { terminal: true } });
        const session = await agent.buildSession(s.cwd).start();
        const answered = session.prompt('/slow');
        const updates: acp.SessionUpdate[] = [];
        let t0 = 0;
        for (;;) {
          const message = await session.nextUpdate();
          if (message.kind === 'stop') break;
          updates.push(message.update);
          if (message.update.sessionUpdate === 'tool_call' && t0 === 0) {
            t0 = Date.now();
            void agent.notify('session/cancel', { sessionId: session.sessionId });
          }
        }
        const { stopReason } = await answered;
        return { updates, stopReason, elapsed: Date.now() - t0 };
      });
      expect(stopReason).toBe('cancelled');
      expect(elapsed).toBeLessThan(3_000);
      const shown = updates.filter((u) => u.sessionUpdate === 'tool_call');
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatchObject({ kind: 'execute', status: 'in_progress', title: expect.stringContaining('sleep 4 && touch BANGDONE'), content: [{ type: 'terminal' }] });
      const id = (shown[0] as { toolCallId: string }).toolCallId;
      expect(updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === id).at(-1)).toMatchObject({ status: 'failed', content: [{ type: 'terminal' }] });
      const methods = methodsOf(state);
      expect(methods).toContain('terminal/kill');
      expect(methods.indexOf('terminal/kill')).toBeLessThan(methods.lastIndexOf('terminal/release'));
      expect(methods.filter((m) => m === 'terminal/create')).toHaveLength(1);
      await sleep(4_500);
      expect(existsSync(path.join(s.cwd, 'BANGDONE'))).toBe(false);
      expect(existsSync(path.join(s.cwd, 'SECOND'))).toBe(false);
      expect(s.requests).toHaveLength(0);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nmewcode acp stderr:\n${stderr}`);
    } finally {
      clearTimeout(watchdog);
      child.stdin.end();
      child.kill('SIGTERM');
      await closed;
    }
  });
}, 40_000);
