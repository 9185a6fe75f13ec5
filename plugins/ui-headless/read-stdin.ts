/** Reads piped standard input for the prompt, bounded so a runaway pipe cannot exhaust memory. */
export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

export async function readStdin(stream: NodeJS.ReadableStream = process.stdin, limit = MAX_STDIN_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limit) throw new Error(`standard input is larger than ${limit} bytes; pass a shorter prompt or a file path instead`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
