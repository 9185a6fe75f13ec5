/** The session's CommandEnvironment (TOKENS.CommandEnvironment): what later bash commands get on top of their allow-listed environment. */
import type { CommandEnvironment } from '../../types/command-environment.js';

export class CommandEnvironmentStore implements CommandEnvironment {
  private readonly values = new Map<string, string>();

  set(variables: Readonly<Record<string, string>>): void {
    for (const [name, value] of Object.entries(variables)) this.values.set(name, value);
  }

  variables(): Readonly<Record<string, string>> {
    return Object.fromEntries(this.values);
  }
}
