/**
 * A terminal for end-to-end tests of the interactive UI: the real `bin/mewcode.js` runs in a
 * tmux pane (its own server per test, `-L <socket>`), keys go in with `send-keys`, the screen
 * comes back with `capture-pane`. The pane stays open after MewCode exits, so the scrollback can
 * be read afterwards.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export const WIDTH = 100;
export const HEIGHT = 30;
/** Generous: CI machines are shared; polling ends as soon as the screen matches. */
export const WAIT_MS = 20_000;
const POLL_MS = 100;
/** Printed by the pane's shell when MewCode exits. */
export const EXITED = /\[mewcode exited (\d+)\]/;

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export class TmuxTerminal {
  private readonly socket = `mewcode-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  private alive = false;

  /** Start `node <bin> args` in `cwd` with exactly `env` (nothing else of this process's environment). */
  start(bin: string, args: readonly string[], cwd: string, env: Record<string, string | undefined>): void {
    const vars = Object.entries({ TERM: 'xterm-256color', ...env })
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => `${k}=${shellQuote(v)}`);
    const command = `cd ${shellQuote(cwd)} && env -i ${vars.join(' ')} ${shellQuote(process.execPath)} ${shellQuote(bin)} ${args.map(shellQuote).join(' ')}; echo "[mewcode exited $?]"; sleep 600`;
    this.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', String(WIDTH), '-y', String(HEIGHT), command);
    this.alive = true;
    this.tmux('set-option', '-t', 'main', 'history-limit', '50000');
  }

  /** Keys as tmux names them (`Enter`, `Escape`, `C-c`, `BTab`, `1`). */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** Literal text (no key names), then nothing else. */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** The visible screen, or everything from the start of the scrollback. */
  screen(all = false): string {
    return this.tmux('capture-pane', '-p', '-t', 'main', ...(all ? ['-S', '-'] : [])).replace(/\s+$/, '');
  }

  /** The visible screen with its colours (SGR escape sequences kept). */
  screenWithColours(): string {
    return this.tmux('capture-pane', '-p', '-e', '-t', 'main');
  }

  /**
   * Poll until the visible screen (with `all`, the whole scrollback) matches; resolves to the
   * visible screen, fails with what was shown when it does not match in time.
   */
  async waitFor(what: RegExp | string | ((screen: string) => boolean), label = String(what), options: { all?: boolean; timeoutMs?: number } = {}): Promise<string> {
    const timeoutMs = options.timeoutMs ?? WAIT_MS;
    const test = typeof what === 'function' ? what : (s: string) => (typeof what === 'string' ? s.includes(what) : what.test(s));
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = this.screen(options.all === true);
      if (test(last)) return this.screen();
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new Error(`the terminal did not show ${label} within ${timeoutMs} ms; it shows:\n${last}`);
  }

  kill(): void {
    if (!this.alive) return;
    this.alive = false;
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }

  /** A tmux command against this terminal's own server (an option, a query such as `display -p`). */
  command(...args: string[]): string {
    return this.tmux(...args);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }
}

/** A screen as it goes into the test output. */
export function printScreen(title: string, screen: string): void {
  process.stdout.write(`\n──── ${title} ${'─'.repeat(Math.max(0, WIDTH - title.length - 6))}\n${screen}\n${'─'.repeat(WIDTH)}\n`);
}
