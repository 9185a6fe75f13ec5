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
  /** One JSON-RPC message of the agent's own, between the SDK's. */
  writeMessage(message: object): void;
  restore(): void;
}

export function claimStdio(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr, stdin: NodeJS.ReadStream = process.stdin): ProtocolStdio {
  const originalWrite = stdout.write;
  const write = originalWrite.bind(stdout) as (chunk: Uint8Array, callback: (error?: Error | null) => void) => boolean;
  // One queue for the SDK's messages and this agent's own (line-cap.ts): lines never interleave.
  let queue: Promise<void> = Promise.resolve();
  const send = (chunk: Uint8Array): Promise<void> => {
    const written = queue.then(() => new Promise<void>((resolve, reject) => void write(chunk, (error) => (error ? reject(error) : resolve()))));
    queue = written.catch(() => undefined);
    return written;
  };
  const output = new WritableStream<Uint8Array>({ write: send });
  stdout.write = ((...args: Parameters<typeof stdout.write>) => (stderr.write as (...a: unknown[]) => boolean).apply(stderr, args)) as typeof stdout.write;
  const input = Readable.toWeb(stdin) as unknown as ReadableStream<Uint8Array>;
  return {
    output,
    input,
    writeMessage: (message) => void send(Buffer.from(`${JSON.stringify(message)}\n`, 'utf8')).catch(() => undefined),
    restore: () => {
      stdout.write = originalWrite;
    },
  };
}
