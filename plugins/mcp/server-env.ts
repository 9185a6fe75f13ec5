/**
 * A stdio server's environment (M1: the host's environment plus the entry's `env`), minus
 * what looks like a credential: a server is someone else's code, and MewCode's own API keys or
 * the user's cloud tokens must not reach every server the user configures. A server that needs
 * one names it in its entry (`env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" }`), as Claude Code's
 * documentation shows for `.mcp.json`.
 */
const CREDENTIAL_NAME = /(^|_)(API_?KEY|KEY|TOKEN|PAT|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)(_|$)|PASSWORD$|_PWD$|^AWS_|^AZURE_|^GOOGLE_APPLICATION_CREDENTIALS$|^MEWCODE_/i;

export function serverEnvironment(host: NodeJS.ProcessEnv, configured: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(host)) {
    if (value !== undefined && !CREDENTIAL_NAME.test(name)) env[name] = value;
  }
  return Object.assign(env, configured);
}
