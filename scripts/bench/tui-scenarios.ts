// The terminal UI's rendering cost, measured in-process (compiled by scripts/bench/tui.mjs): the
// real App renders through Ink into a fake terminal that counts what is written. Streamed tokens,
// finished messages, a 2,000-line tool output and a 500-message history; a full-screen redraw
// (Ink's clear-terminal path, which also wipes the scrollback) is counted separately.
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { render } from 'ink';
import { createElement } from 'react';
import type { KernelApi } from '../../types/plugin.js';
import { App } from '../../plugins/ui-tui/app/app.js';
import { INK_OPTIONS } from '../../plugins/ui-tui/app/start.js';
import { TuiController } from '../../plugins/ui-tui/model/controller.js';
import { UiStore } from '../../plugins/ui-tui/model/ui-store.js';

export const COLUMNS = 100;
export const ROWS = 30;
/** ESC [ 2 J: Ink clears the terminal (and the scrollback with ESC [ 3 J) when it redraws everything. */
const CLEAR = '\u001B[2J';

class Terminal extends Writable {
  isTTY = true;
  columns = COLUMNS;
  rows = ROWS;
  bytes = 0;
  writes = 0;
  clears = 0;
  maxWrite = 0;
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    const text = chunk.toString();
    this.bytes += Buffer.byteLength(text);
    this.writes++;
    this.maxWrite = Math.max(this.maxWrite, Buffer.byteLength(text));
    if (text.includes(CLEAR)) this.clears++;
    done();
  }
  reset(): void {
    this.bytes = this.writes = this.clears = this.maxWrite = 0;
  }
}

class Keyboard extends EventEmitter {
  isTTY = true;
  setRawMode(): void {}
  setEncoding(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
  read(): null {
    return null;
  }
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function mount() {
  const kernel = {
    commands: () => [],
    session: { currentProvider: () => ({ id: 'bench', model: 'm', contextWindow: 200_000 }) },
    container: { isBound: () => false },
  } as unknown as KernelApi;
  const store = new UiStore({ provider: 'bench', model: 'm', mode: 'default', sandbox: 'none', contextWindow: 200_000, contextTokens: 0, sessionTokens: 0 });
  const controller = new TuiController(kernel, store);
  const terminal = new Terminal();
  const instance = render(createElement(App, { controller }), { ...INK_OPTIONS, stdout: terminal as unknown as NodeJS.WriteStream, stdin: new Keyboard() as unknown as NodeJS.ReadStream, patchConsole: false });
  return { store, terminal, instance };
}

export interface Measured {
  name: string;
  units: number;
  unit: string;
  bytes: number;
  writes: number;
  clears: number;
  maxWrite: number;
  /** What the units themselves amount to (characters of text shown), for comparison. */
  payloadBytes: number;
}

function snapshot(name: string, unit: string, units: number, payloadBytes: number, t: Terminal): Measured {
  return { name, unit, units, payloadBytes, bytes: t.bytes, writes: t.writes, clears: t.clears, maxWrite: t.maxWrite };
}

/** Tokens of ~5 characters every `gapMs`, a paragraph break every 40 tokens. */
async function stream(store: UiStore, tokens: number, gapMs: number): Promise<number> {
  let payload = 0;
  for (let i = 0; i < tokens; i++) {
    const text = i % 40 === 39 ? 'end.\n\n' : `w${i % 10}rd `;
    payload += text.length;
    store.apply({ type: 'text', text });
    await pause(gapMs);
  }
  return payload;
}

export async function measureTui(): Promise<Measured[]> {
  const results: Measured[] = [];

  // (a) streamed tokens into an empty session
  {
    const { store, terminal, instance } = mount();
    await pause(100);
    terminal.reset();
    const payload = await stream(store, 400, 5);
    await pause(100);
    results.push(snapshot('streamed tokens (400, one every 5 ms), empty history', 'token', 400, payload, terminal));
    instance.unmount();
  }

  // (b) finished messages written to the scrollback
  {
    const { store, terminal, instance } = mount();
    await pause(100);
    terminal.reset();
    const text = 'A finished paragraph of an answer, about eighty characters long, written once.';
    for (let i = 0; i < 100; i++) {
      store.add({ kind: 'assistant', text });
      await pause(35);
    }
    await pause(100);
    results.push(snapshot('finished messages (100, each its own frame)', 'message', 100, 100 * text.length, terminal));
    instance.unmount();
  }

  // (c) a tool whose output is 2,000 lines: tail updates while it runs, then its result
  {
    const { store, terminal, instance } = mount();
    await pause(100);
    const call = { id: 'c1', name: 'bash', input: JSON.stringify({ command: 'seq 1 2000' }) };
    store.apply({ type: 'tool_start', call });
    await pause(50);
    terminal.reset();
    const lines: string[] = [];
    for (let i = 1; i <= 2000; i++) {
      lines.push(`output line ${i} of the long command`);
      if (i % 10 === 0) {
        store.apply({ type: 'tool_progress', call, progress: { progress: i, message: lines.slice(-5).join('\n') } });
        await pause(1);
      }
    }
    await pause(100);
    const running = snapshot('2,000-line output: tail updates while running (200 updates)', 'update', 200, 0, terminal);
    results.push(running);
    terminal.reset();
    const content = lines.join('\n');
    store.apply({ type: 'tool_end', call, result: { toolCallId: 'c1', content, isError: false }, durationMs: 2000 });
    await pause(100);
    results.push(snapshot('2,000-line output: the finished result', 'result', 1, Buffer.byteLength(content), terminal));
    instance.unmount();
  }

  // (d) a 500-message history, then streaming
  {
    const { store, terminal, instance } = mount();
    await pause(100);
    terminal.reset();
    for (let i = 0; i < 250; i++) {
      store.add({ kind: 'user', text: `question ${i}: what does this function do?` }, { kind: 'assistant', text: `Answer ${i}.\n\nIt reads the file, parses it and returns the result.` });
    }
    await pause(150);
    results.push(snapshot('500-message history added at once', 'message', 500, 0, terminal));
    terminal.reset();
    const payload = await stream(store, 400, 5);
    await pause(100);
    results.push(snapshot('streamed tokens (400) after the 500-message history', 'token', 400, payload, terminal));
    instance.unmount();
  }
  return results;
}
