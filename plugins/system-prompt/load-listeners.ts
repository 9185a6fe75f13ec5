/**
 * The listeners of TOKENS.InstructionLoads (the hooks plugin's InstructionsLoaded). A load waits
 * for them, so a hook has run before the text it was told of reaches the model; a listener that
 * throws is a warning, and the file loads all the same (nothing a listener says stops a load).
 */
import type { InstructionLoad } from '../../types/instruction-loads.js';

type Listener = (load: InstructionLoad) => Promise<void> | void;

export class LoadListeners {
  private readonly listeners = new Set<Listener>();
  warn: (message: string) => void = () => undefined;

  add(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Every listener told of each load, in order. */
  async tell(loads: readonly InstructionLoad[]): Promise<void> {
    if (this.listeners.size === 0 || loads.length === 0) return;
    for (const load of loads) {
      await Promise.all(
        [...this.listeners].map(async (listener) => {
          try {
            await listener(load);
          } catch (error) {
            this.warn(`instructions: a listener of ${load.filePath}'s load failed: ${(error as Error).message}`);
          }
        }),
      );
    }
  }
}
