import { describe, expect, test } from 'vitest';
import type { ImportClient } from '../../protocol/import';
import { defaultSourcePath, type PathEnvironment } from './paths';

/**
 * Default locations per client and OS. A wrong path only finds nothing ("not found" in the
 * preview); it can never import from an unexpected file, since only these fixed locations (or
 * the file the user names) are read.
 */

const linux: PathEnvironment = { platform: 'linux', homedir: '/home/alex', env: {} };
const mac: PathEnvironment = { platform: 'darwin', homedir: '/Users/alex', env: {} };
const windows: PathEnvironment = {
  platform: 'win32',
  homedir: 'C:\\Users\\alex',
  env: { APPDATA: 'C:\\Users\\alex\\AppData\\Roaming' },
};

describe('defaultSourcePath', () => {
  test.each<[ImportClient, string, string, string]>([
    [
      'claude-desktop',
      '/home/alex/.config/Claude/claude_desktop_config.json',
      '/Users/alex/Library/Application Support/Claude/claude_desktop_config.json',
      'C:\\Users\\alex\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    ],
    [
      'claude-code',
      '/home/alex/.claude.json',
      '/Users/alex/.claude.json',
      'C:\\Users\\alex\\.claude.json',
    ],
    [
      'cursor',
      '/home/alex/.cursor/mcp.json',
      '/Users/alex/.cursor/mcp.json',
      'C:\\Users\\alex\\.cursor\\mcp.json',
    ],
    [
      'vscode',
      '/home/alex/.config/Code/User/mcp.json',
      '/Users/alex/Library/Application Support/Code/User/mcp.json',
      'C:\\Users\\alex\\AppData\\Roaming\\Code\\User\\mcp.json',
    ],
    [
      'windsurf',
      '/home/alex/.codeium/windsurf/mcp_config.json',
      '/Users/alex/.codeium/windsurf/mcp_config.json',
      'C:\\Users\\alex\\.codeium\\windsurf\\mcp_config.json',
    ],
    [
      'codex',
      '/home/alex/.codex/config.toml',
      '/Users/alex/.codex/config.toml',
      'C:\\Users\\alex\\.codex\\config.toml',
    ],
    [
      'zed',
      '/home/alex/.config/zed/settings.json',
      // Zed keeps its settings in ~/.config on macOS too, not in Application Support.
      '/Users/alex/.config/zed/settings.json',
      'C:\\Users\\alex\\AppData\\Roaming\\Zed\\settings.json',
    ],
  ])('%s: linux, macOS, Windows', (client, onLinux, onMac, onWindows) => {
    expect(defaultSourcePath(client, linux)).toBe(onLinux);
    expect(defaultSourcePath(client, mac)).toBe(onMac);
    expect(defaultSourcePath(client, windows)).toBe(onWindows);
  });

  test.each<[string, ImportClient, PathEnvironment, string]>([
    [
      'XDG_CONFIG_HOME moves Claude Desktop on Linux',
      'claude-desktop',
      { ...linux, env: { XDG_CONFIG_HOME: '/xdg' } },
      '/xdg/Claude/claude_desktop_config.json',
    ],
    [
      'XDG_CONFIG_HOME moves VS Code on Linux',
      'vscode',
      { ...linux, env: { XDG_CONFIG_HOME: '/xdg' } },
      '/xdg/Code/User/mcp.json',
    ],
    [
      'a relative XDG_CONFIG_HOME is ignored',
      'zed',
      { ...linux, env: { XDG_CONFIG_HOME: 'xdg' } },
      '/home/alex/.config/zed/settings.json',
    ],
    [
      'XDG_CONFIG_HOME does not apply on macOS',
      'vscode',
      { ...mac, env: { XDG_CONFIG_HOME: '/xdg' } },
      '/Users/alex/Library/Application Support/Code/User/mcp.json',
    ],
    [
      'Flatpak Zed',
      'zed',
      { ...linux, env: { FLATPAK_XDG_CONFIG_HOME: '/fp', XDG_CONFIG_HOME: '/xdg' } },
      '/fp/zed/settings.json',
    ],
    [
      'CLAUDE_CONFIG_DIR',
      'claude-code',
      { ...linux, env: { CLAUDE_CONFIG_DIR: '/home/alex/.claude-work' } },
      '/home/alex/.claude-work/.claude.json',
    ],
    [
      'CODEX_HOME',
      'codex',
      { ...linux, env: { CODEX_HOME: '/opt/codex' } },
      '/opt/codex/config.toml',
    ],
    [
      'an empty CODEX_HOME is ignored',
      'codex',
      { ...linux, env: { CODEX_HOME: '' } },
      '/home/alex/.codex/config.toml',
    ],
    [
      'Windows without APPDATA',
      'claude-desktop',
      { ...windows, env: {} },
      'C:\\Users\\alex\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    ],
    [
      'Windows variables ignore case',
      'vscode',
      { ...windows, env: { AppData: 'D:\\Roaming' } },
      'D:\\Roaming\\Code\\User\\mcp.json',
    ],
    [
      'a drive-relative APPDATA is ignored',
      'zed',
      { ...windows, env: { APPDATA: 'D:Roaming' } },
      'C:\\Users\\alex\\AppData\\Roaming\\Zed\\settings.json',
    ],
  ])('%s', (_, client, where, expected) => {
    expect(defaultSourcePath(client, where)).toBe(expected);
  });
});
