/**
 * Models served without a reasoning parser (Qwen, Ollama, DeepSeek distills on vLLM or llama.cpp)
 * write their reasoning into the content, between `<think>` and `</think>` at its start. That part
 * is thinking: shown as such, never the answer, never sent back as text. Only a tag opening the
 * content counts; `<think>` later in an answer is text. Fragments may split a tag anywhere, so the
 * start is held back until it is clear, and so is a possible partial `</think>`.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

export interface ContentPart {
  thinking: boolean;
  text: string;
}

export class ThinkTagSplitter {
  /** afterThink: the blank lines between `</think>` and the answer are dropped */
  #state: 'start' | 'thinking' | 'afterThink' | 'text' = 'start';
  /** content held back: the undecided start, or a possible partial closing tag */
  #held = '';

  push(fragment: string): ContentPart[] {
    if (this.#state === 'text') return [{ thinking: false, text: fragment }];
    if (this.#state === 'afterThink') {
      const text = fragment.replace(/^\s+/, '');
      if (text === '') return [];
      this.#state = 'text';
      return [{ thinking: false, text }];
    }
    this.#held += fragment;
    const parts: ContentPart[] = [];
    if (this.#state === 'start') {
      const lead = this.#held.trimStart();
      if (lead.length < OPEN.length && OPEN.startsWith(lead)) return parts; // not decided yet
      if (!lead.startsWith(OPEN)) {
        this.#state = 'text';
        const text = this.#held;
        this.#held = '';
        return [{ thinking: false, text }];
      }
      this.#state = 'thinking';
      this.#held = lead.slice(OPEN.length);
    }
    const close = this.#held.indexOf(CLOSE);
    if (close >= 0) {
      const thinking = this.#held.slice(0, close);
      const rest = this.#held.slice(close + CLOSE.length).replace(/^\s+/, '');
      this.#held = '';
      this.#state = rest === '' ? 'afterThink' : 'text';
      if (thinking !== '') parts.push({ thinking: true, text: thinking });
      if (rest !== '') parts.push({ thinking: false, text: rest });
      return parts;
    }
    // Keep back the longest tail that could begin `</think>`.
    let keep = 0;
    for (let n = Math.min(CLOSE.length - 1, this.#held.length); n > 0; n--) {
      if (CLOSE.startsWith(this.#held.slice(-n))) {
        keep = n;
        break;
      }
    }
    const out = this.#held.slice(0, this.#held.length - keep);
    this.#held = this.#held.slice(this.#held.length - keep);
    if (out !== '') parts.push({ thinking: true, text: out });
    return parts;
  }

  /** The end of the content: what is still held back (an unclosed `<think>` is all thinking). */
  end(): ContentPart[] {
    const held = this.#held;
    this.#held = '';
    if (held === '') return [];
    return [{ thinking: this.#state === 'thinking', text: held }];
  }
}
