// Pretty-prints MewCode's `--output-format stream-json` events as they arrive.
const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);
export const style = { dim: paint('2'), bold: paint('1'), cyan: paint('36'), green: paint('32'), yellow: paint('33'), red: paint('31'), magenta: paint('35') };

const LABEL_WIDTH = 12;
const INDENT = ' '.repeat(2 + LABEL_WIDTH);
const label = (text, color = (s) => s) => `  ${color(text.padEnd(LABEL_WIDTH))}`;

function oneLine(value, max = 200) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const usageText = (u) => `in ${u.input_tokens} · out ${u.output_tokens}` + (u.cache_read_input_tokens ? ` · cache read ${u.cache_read_input_tokens}` : '') + (u.cache_creation_input_tokens ? ` · cache write ${u.cache_creation_input_tokens}` : '');

export class EventPrinter {
  constructor(out = process.stdout) {
    this.out = out;
    this.open = undefined; // 'thinking' | 'text' while deltas stream in
    this.result = undefined;
    this.resultLine = undefined;
    this.events = 0;
  }

  /** One stream-json line from the CLI. */
  line(raw) {
    if (!raw.trim()) return;
    let event;
    try {
      event = JSON.parse(raw);
    } catch {
      this.close();
      this.out.write(`${label('output')}${raw}\n`);
      return;
    }
    this.events++;
    switch (event.type) {
      case 'system':
        this.out.write(style.dim(`session ${event.session_id} · model ${event.model} · permission mode ${event.permission_mode} · mewcode ${event.mewcode_version}\n`));
        break;
      case 'iteration':
        this.close();
        this.out.write(style.bold(`── model turn ${event.iteration}\n`));
        break;
      case 'thinking_delta':
        this.delta('thinking', event.thinking, style.dim);
        break;
      case 'text_delta':
        this.delta('text', event.text, (s) => s);
        break;
      case 'tool_use':
        this.close();
        this.out.write(`${label('tool call', style.cyan)}${style.cyan(event.name)} ${JSON.stringify(event.input)}\n`);
        break;
      case 'tool_result':
        this.close();
        this.out.write(`${label('tool result', event.is_error ? style.red : style.cyan)}${oneLine(event.content)} ${style.dim(`(${event.duration_ms} ms)`)}\n`);
        break;
      case 'usage':
        this.close();
        this.out.write(`${label('usage', style.dim)}${style.dim(usageText(event.usage))}\n`);
        break;
      case 'notice':
        this.close();
        this.out.write(`${label('notice', style.yellow)}${event.message}\n`);
        break;
      case 'error':
        this.close();
        this.out.write(`${label('error', style.red)}${event.message}\n`);
        break;
      case 'approval_request':
        this.close();
        this.out.write(`${label('approval?', style.yellow)}${event.tool_name}: ${event.reason ?? ''}\n`);
        break;
      case 'result':
        this.close();
        this.result = event;
        this.resultLine = raw;
        break;
      default:
        this.close();
        this.out.write(`${label(event.type ?? 'event', style.dim)}${style.dim(oneLine(event))}\n`);
    }
  }

  delta(kind, text, color) {
    if (this.open !== kind) {
      this.close();
      this.out.write(label(kind === 'thinking' ? 'thinking' : 'text', kind === 'thinking' ? style.dim : style.green));
      this.open = kind;
    }
    this.out.write(color(text.replace(/\n/g, `\n${INDENT}`)));
  }

  close() {
    if (this.open) this.out.write('\n');
    this.open = undefined;
  }
}
