/**
 * Whether the OS sandbox (TOKENS.CommandSandbox) will confine a call of this tool: only bash runs
 * in it, and a probe that fails counts as not. The layers that judge what a command may reach
 * (the blacklist, the protected paths) ask it, since some of their checks only matter where
 * nothing else keeps the command in.
 */
import type { Container } from 'inversify';
import type { CommandSandbox } from './sandbox.js';
import { TOKENS } from './tokens.js';

const SANDBOXED_TOOLS: readonly string[] = ['bash'];

export async function commandConfined(container: Container, toolName: string): Promise<boolean> {
  if (!SANDBOXED_TOOLS.includes(toolName) || !container.isBound(TOKENS.CommandSandbox)) return false;
  try {
    return (await container.get<CommandSandbox>(TOKENS.CommandSandbox).probe()).active;
  } catch {
    return false;
  }
}
