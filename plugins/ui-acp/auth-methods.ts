/**
 * ACP authentication for an agent whose credentials are API keys: one method per provider
 * protocol this build speaks, naming the environment variable that carries its key. MewCode never
 * asks for or stores a key through the protocol; `authenticate` checks the key is there and says
 * exactly what to set when it is not. A configured `providers:` entry with its own `api_key` needs
 * no method at all (sessions simply open).
 */
import { RequestError, type AuthMethod } from '@agentclientprotocol/sdk';

export interface ProviderKey {
  protocol: string;
  apiKeyEnv: string;
}

const methodId = (key: ProviderKey): string => `env-${key.protocol}`;

export function authMethods(keys: readonly ProviderKey[]): AuthMethod[] {
  return keys.map((key) => ({
    id: methodId(key),
    name: `${key.protocol} API key (${key.apiKeyEnv})`,
    description: `Set ${key.apiKeyEnv} in the agent's environment (the env of MewCode's entry in the editor's agent settings), or configure providers: in ~/.mewcode/config.yaml.`,
  }));
}

export function authenticate(id: string, keys: readonly ProviderKey[], env: NodeJS.ProcessEnv): Record<string, never> {
  const key = keys.find((k) => methodId(k) === id);
  if (!key) throw RequestError.invalidParams({ methodId: id }, `unknown authentication method "${id}"; the methods are ${keys.map(methodId).join(', ') || '(none)'}`);
  if ((env[key.apiKeyEnv] ?? '').trim() === '') {
    throw RequestError.authRequired({ methodId: id }, `${key.apiKeyEnv} is not set in the agent's environment: add it to the env of MewCode's entry in the editor's agent settings and restart the agent`);
  }
  return {};
}
