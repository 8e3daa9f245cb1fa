import path from 'node:path';
import type { ImportClient } from '../../protocol/import';
import { getEnvVar } from '../config/env';
import { isAbsoluteFor } from './convert-entry';

/**
 * Where each client keeps its MCP servers by default, per OS. Pure: computed from the platform,
 * the home folder and the environment, so the rules of all three OSes are tested on any one.
 * Environment lookups ignore case on Windows; a variable that is not an absolute path is ignored
 * (as the XDG spec requires for XDG_CONFIG_HOME), falling back to the home-relative default.
 */

export interface PathEnvironment {
  readonly platform: NodeJS.Platform;
  /** Absolute home folder. */
  readonly homedir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function defaultSourcePath(client: ImportClient, where: PathEnvironment): string {
  const p = where.platform === 'win32' ? path.win32 : path.posix;
  const home = where.homedir;
  const variable = (name: string): string | undefined => {
    const value = getEnvVar(where.env, name, where.platform);
    return value !== undefined && value !== '' && isAbsoluteFor(value, where.platform)
      ? value
      : undefined;
  };
  /** %APPDATA% on Windows (Roaming), the XDG config folder elsewhere (not on macOS). */
  const appData = (): string => variable('APPDATA') ?? p.join(home, 'AppData', 'Roaming');
  const xdgConfig = (): string => variable('XDG_CONFIG_HOME') ?? p.join(home, '.config');
  const macSupport = p.join(home, 'Library', 'Application Support');

  switch (client) {
    case 'claude-desktop': {
      const file = 'claude_desktop_config.json';
      if (where.platform === 'darwin') return p.join(macSupport, 'Claude', file);
      if (where.platform === 'win32') return p.join(appData(), 'Claude', file);
      return p.join(xdgConfig(), 'Claude', file);
    }
    case 'claude-code':
      return p.join(variable('CLAUDE_CONFIG_DIR') ?? home, '.claude.json');
    case 'cursor':
      return p.join(home, '.cursor', 'mcp.json');
    case 'vscode': {
      if (where.platform === 'darwin') return p.join(macSupport, 'Code', 'User', 'mcp.json');
      if (where.platform === 'win32') return p.join(appData(), 'Code', 'User', 'mcp.json');
      return p.join(xdgConfig(), 'Code', 'User', 'mcp.json');
    }
    case 'windsurf':
      return p.join(home, '.codeium', 'windsurf', 'mcp_config.json');
    case 'codex':
      return p.join(variable('CODEX_HOME') ?? p.join(home, '.codex'), 'config.toml');
    case 'zed': {
      if (where.platform === 'win32') return p.join(appData(), 'Zed', 'settings.json');
      // Zed keeps its settings in ~/.config/zed on macOS too.
      if (where.platform === 'darwin') return p.join(home, '.config', 'zed', 'settings.json');
      const base = variable('FLATPAK_XDG_CONFIG_HOME') ?? xdgConfig();
      return p.join(base, 'zed', 'settings.json');
    }
  }
}
