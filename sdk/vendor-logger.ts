/**
 * The logger given to the vendor SDKs. By default they log through `console` (the openai SDK
 * prints "Could not parse message into JSON: …" and "From chunk: …" on stderr before it throws),
 * which would write over MewCode's own output and any terminal UI. The error itself still reaches
 * the provider and is reported as a typed ProviderError; the SDK's lines appear only with
 * `MEWCODE_DEBUG=sdk`, prefixed like MewCode's other debug lines.
 */
import { terminal } from '../config/terminal-safe.js';

export interface VendorLogger {
  error(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
}

export function vendorLogger(name: string): VendorLogger {
  const write = (level: string) => (message: string, ...rest: unknown[]): void => {
    if (!process.env.MEWCODE_DEBUG?.includes('sdk')) return;
    const detail = rest.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(' ');
    // The lines quote what the provider sent: through the terminal-safe filter.
    terminal.err(`mewcode: debug: ${name} ${level}: ${message}${detail === '' ? '' : ` ${detail}`}\n`);
  };
  return { error: write('error'), warn: write('warn'), info: write('info'), debug: write('debug') };
}
