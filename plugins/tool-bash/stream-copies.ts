/**
 * A command's stdout and stderr kept apart, for the hooks only: Claude Code's Bash gives a
 * PostToolUse hook `tool_response.stdout` and `.stderr` separately (a guard reading `.stderr` for
 * "error:" must see it), while the model reads both interleaved in arrival order (bash-tool.ts).
 *
 * Each stream keeps at most `maxChars` characters: its first quarter and its end (where build and
 * test failures are), with a marker naming what was left out, the same shape as the model's
 * result. Chunks arrive as UTF-8-safe pieces per stream (process-group.ts), so decoding one never
 * splits a character.
 */
import type { CommandStreams } from '../../types/messages.js';

export type StreamName = keyof CommandStreams;

class StreamCopy {
  private head = '';
  private tail = '';
  private omitted = 0;

  constructor(private readonly maxChars: number) {}

  write(text: string): void {
    const headRoom = Math.floor(this.maxChars / 4) - this.head.length;
    if (this.omitted === 0 && this.tail === '' && headRoom > 0) {
      this.head += text.slice(0, headRoom);
      text = text.slice(headRoom);
      if (text === '') return;
    }
    const tailRoom = this.maxChars - Math.floor(this.maxChars / 4);
    const joined = this.tail + text;
    const drop = Math.max(0, joined.length - tailRoom);
    this.omitted += drop;
    this.tail = joined.slice(drop);
  }

  text(): string {
    if (this.omitted === 0) return this.head + this.tail;
    return `${this.head}\n[… ${this.omitted} characters omitted …]\n${this.tail}`;
  }
}

export class StreamCopies {
  private readonly streams: Record<StreamName, StreamCopy>;

  constructor(maxChars: number) {
    this.streams = { stdout: new StreamCopy(maxChars), stderr: new StreamCopy(maxChars) };
  }

  write(stream: StreamName, chunk: Buffer): void {
    this.streams[stream].write(chunk.toString('utf8'));
  }

  finish(): CommandStreams {
    return { stdout: this.streams.stdout.text(), stderr: this.streams.stderr.text() };
  }
}
