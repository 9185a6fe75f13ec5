/**
 * The protocol owns standard output: its messages are written with the stream's own write, and
 * every other write to process.stdout in this process (a plugin's console.log, a library's
 * banner) goes to standard error instead, so the editor never reads a line that is not JSON-RPC.
 * Child processes have their own pipes. `restore()` puts process.stdout back.
 */
import { Readable } from 'node:stream';

export interface ProtocolStdio {
  output: WritableStream<Uint8Array>;
  input: ReadableStream<Uint8Array>;
  restore(): void;
}

export function claimStdio(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr, stdin: NodeJS.ReadStream = process.stdin): ProtocolStdio {
  const originalWrite = stdout.write;
  const write = originalWrite.bind(stdout) as (chunk: Uint8Array, callback: (error?: Error | null) => void) => boolean;
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve, reject) => void write(chunk, (error) => (error ? reject(error) : resolve()))),
  });
  stdout.write = ((...args: Parameters<typeof stdout.write>) => (stderr.write as (...a: unknown[]) => boolean).apply(stderr, args)) as typeof stdout.write;
  const input = Readable.toWeb(stdin) as unknown as ReadableStream<Uint8Array>;
  return {
    output,
    input,
    restore: () => {
      stdout.write = originalWrite;
    },
  };
}
