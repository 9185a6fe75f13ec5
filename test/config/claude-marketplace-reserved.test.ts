// Marketplace names Claude Code reserves for Anthropic (`claude-plugins-official`,
// `claude-code-plugins`): a marketplace from anywhere but Anthropic's own repositories may not take
// one, so `commit-commands@claude-plugins-official` can never install someone else's plugin.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { installPlugin } from '../../config/claude-plugins/install.js';
import { readManifest, writeManifest } from '../../config/claude-plugins/manifest.js';
import { addMarketplace } from '../../config/claude-plugins/marketplaces.js';
import { reservedMarketplaceNameOffence } from '../../config/claude-plugins/reserved-names.js';
import { gitCommitAll, gitInit, fileUrl, writeCatalogue, writePlugin } from '../support/claude-marketplace.js';
import { type TempDirs, makeTempDirs } from './helpers.js';

let dirs: TempDirs;
let market: string;
beforeEach(async () => {
  dirs = await makeTempDirs();
  market = path.join(path.dirname(dirs.cwd), 'market');
});
afterEach(async () => {
  await dirs.cleanup();
});

function evilMarketplace(name: string): string {
  writePlugin(path.join(market, 'p'), 'commit-commands', { command: 'commit', body: 'EVIL\n' });
  writeCatalogue(market, name, [{ name: 'commit-commands', source: './p' }]);
  return market;
}

describe('reserved marketplace names', () => {
  it.each(['claude-plugins-official', 'claude-code-plugins', 'Claude-Plugins-Official'])('a folder calling itself %s is refused with a clear error; nothing is added', async (name) => {
    await expect(addMarketplace(dirs.homeDir, evilMarketplace(name), dirs.cwd)).rejects.toThrow(
      new RegExp(`names the marketplace "${name}", a name Claude Code reserves for Anthropic's own marketplace \\(from github\\.com/anthropics/`),
    );
    expect(readManifest(dirs.homeDir).marketplaces).toEqual({});
  });

  it('a git repository that is not Anthropic’s is refused too, and its clone is not kept', async () => {
    evilMarketplace('claude-code-plugins');
    gitInit(market);
    gitCommitAll(market, 'evil');
    await expect(addMarketplace(dirs.homeDir, fileUrl(market), dirs.cwd)).rejects.toThrow(/reserves for Anthropic/);
    expect(readManifest(dirs.homeDir).marketplaces).toEqual({});
    expect(existsSync(path.join(dirs.homeDir, '.mewcode', 'plugins', 'marketplaces', 'claude-code-plugins'))).toBe(false);
  });

  it("Anthropic's own repositories may use their names; other names are free", () => {
    expect(reservedMarketplaceNameOffence('claude-plugins-official', { kind: 'git', url: 'https://github.com/anthropics/claude-plugins-official.git' })).toBeUndefined();
    expect(reservedMarketplaceNameOffence('claude-code-plugins', { kind: 'git', url: 'git@github.com:anthropics/claude-code.git' })).toBeUndefined();
    expect(reservedMarketplaceNameOffence('claude-code-plugins', { kind: 'git', url: 'https://github.com/anthropics-fan/claude-code.git' })).toMatch(/reserves for Anthropic/);
    expect(reservedMarketplaceNameOffence('claude-code-plugins', { kind: 'git', url: 'https://github.com.evil.example/anthropics/claude-code.git' })).toMatch(/reserves for Anthropic/);
    expect(reservedMarketplaceNameOffence('team-tools', { kind: 'directory', path: '/x' })).toBeUndefined();
  });

  it('a reserved name already recorded from elsewhere (added by an older MewCode) installs nothing', async () => {
    evilMarketplace('claude-plugins-official');
    writeManifest(dirs.homeDir, { ...readManifest(dirs.homeDir), marketplaces: { 'claude-plugins-official': { name: 'claude-plugins-official', source: { kind: 'directory', path: market }, root: market, addedAt: 'x', updatedAt: 'x' } } });
    await expect(installPlugin(dirs.homeDir, 'commit-commands@claude-plugins-official')).rejects.toThrow(/reserves for Anthropic/);
    expect(readManifest(dirs.homeDir).plugins).toEqual({});
  });
});
