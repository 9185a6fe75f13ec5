/**
 * Where the shell parser runs. tree-sitter's bash grammar is WebAssembly, and once a few commands
 * have been parsed V8 recompiles its large lexer with its optimising tier on a background thread:
 * ≈ 40 MiB more, and Node does not exit before that compile is done (measured ≈ 0.25 s on an idle
 * 2-core machine, over 1 s on a loaded one), after every run that parsed a command. A worker
 * thread does not help (Node waits for the background compiles of every thread at exit), and
 * changing V8's flags at run time is unsupported. So the built CLI parses in a child process,
 * started at the first parse (the idle warm-up while the first request waits), killed when MewCode
 * exits: it never delays the exit, and its memory is its own.
 *
 * Outside the bundle (the sources under jest), or when the child's script is missing, the parser
 * runs in this process, with the same results.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SyntaxNode } from './syntax-tree.js';

export interface ParseRequest {
  id: number;
  source: string;
}
export type ParseReply = { id: number; tree: SyntaxNode } | { id: number; error: string };

/**
 * Parses shell source into a plain syntax tree; rejects with the parser's error. A `background`
 * parse (the warm-up) never keeps MewCode running: a run that ends first does not wait for it.
 */
export type ParseShell = (source: string, background?: boolean) => Promise<SyntaxNode>;

const CHILD_SCRIPT = 'mewcode-shell-parser.js';

let inProcess: Promise<ParseShell> | undefined;
let child: ParserChild | undefined;

export function shellParser(): Promise<ParseShell> {
  const script = childScript();
  if (script === undefined) return (inProcess ??= loadInProcess());
  child ??= new ParserChild(script, () => (child = undefined));
  return Promise.resolve((source, background) => child!.parse(source, background));
}

async function loadInProcess(): Promise<ParseShell> {
  const { bashParser, parseToSyntaxTree } = await import('./syntax-tree.js');
  return async (source) => parseToSyntaxTree(await bashParser(), source);
}

let script: string | null | undefined;
/** dist/mewcode-shell-parser.js, beside the entry files: this module is in dist/ or dist/chunks/. */
function childScript(): string | undefined {
  if (script === undefined) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    script = [path.join(here, CHILD_SCRIPT), path.join(here, '..', CHILD_SCRIPT)].find((file) => existsSync(file)) ?? null;
  }
  return script ?? undefined;
}

class ParserChild {
  readonly #process: ChildProcess;
  readonly #pending = new Map<number, { resolve(tree: SyntaxNode): void; reject(error: Error): void; background: boolean }>();
  #nextId = 0;
  #gone: Error | undefined;

  constructor(script: string, onGone: () => void) {
    // No inspector or other flags of this process; its own environment (NODE_OPTIONS included).
    this.#process = fork(script, [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const kill = (): void => void this.#process.kill('SIGKILL');
    process.once('exit', kill);
    this.#process.on('message', (reply: ParseReply) => {
      const waiting = this.#pending.get(reply.id);
      if (!waiting) return;
      this.#pending.delete(reply.id);
      this.#idleUnlessPending();
      if ('tree' in reply) waiting.resolve(reply.tree);
      else waiting.reject(new Error(reply.error));
    });
    const gone = (why: string): void => {
      if (this.#gone) return;
      this.#gone = new Error(`the shell parser's process ${why}`);
      process.removeListener('exit', kill);
      onGone(); // the next parse starts a new one
      for (const waiting of this.#pending.values()) waiting.reject(this.#gone);
      this.#pending.clear();
    };
    this.#process.once('error', (error) => gone(`failed: ${error.message}`));
    this.#process.once('exit', (code, signal) => gone(`exited (${signal ?? code})`));
    this.#idleUnlessPending();
  }

  parse(source: string, background = false): Promise<SyntaxNode> {
    if (this.#gone) return Promise.reject(this.#gone);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, background });
      this.#idleUnlessPending();
      this.#process.send({ id, source } satisfies ParseRequest);
    });
  }

  /** The child keeps MewCode alive only while a parse someone waits for (not the warm-up) is pending. */
  #idleUnlessPending(): void {
    const channel = this.#process.channel as { ref?(): void; unref?(): void } | undefined;
    if ([...this.#pending.values()].some((waiting) => !waiting.background)) {
      this.#process.ref();
      channel?.ref?.();
    } else {
      this.#process.unref();
      channel?.unref?.();
    }
  }
}
