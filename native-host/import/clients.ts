import type { ImportClient } from '../../protocol/import';
import { MAX_CONFIG_FILE_BYTES } from '../config/load';
import { convertClaudeCode } from './clients/claude-code';
import { convertClaudeDesktop } from './clients/claude-desktop';
import { convertCodex } from './clients/codex';
import { convertCursor } from './clients/cursor';
import { convertVsCode } from './clients/vscode';
import { convertWindsurf } from './clients/windsurf';
import { convertZed } from './clients/zed';
import type { Converter } from './types';

/** The clients import knows, each with its converter and the largest file read from it. */
export interface ClientSpec {
  readonly label: string;
  readonly convert: Converter;
  readonly maxBytes: number;
}

/** `~/.claude.json` also keeps Claude Code's per-project history and grows past a megabyte. */
const CLAUDE_JSON_MAX_BYTES = 16 * 1_048_576;

export const CLIENTS: { readonly [C in ImportClient]: ClientSpec } = {
  'claude-desktop': {
    label: 'Claude Desktop',
    convert: convertClaudeDesktop,
    maxBytes: MAX_CONFIG_FILE_BYTES,
  },
  'claude-code': {
    label: 'Claude Code',
    convert: convertClaudeCode,
    maxBytes: CLAUDE_JSON_MAX_BYTES,
  },
  cursor: { label: 'Cursor', convert: convertCursor, maxBytes: MAX_CONFIG_FILE_BYTES },
  vscode: { label: 'VS Code', convert: convertVsCode, maxBytes: MAX_CONFIG_FILE_BYTES },
  windsurf: { label: 'Windsurf', convert: convertWindsurf, maxBytes: MAX_CONFIG_FILE_BYTES },
  codex: { label: 'Codex', convert: convertCodex, maxBytes: MAX_CONFIG_FILE_BYTES },
  zed: { label: 'Zed', convert: convertZed, maxBytes: MAX_CONFIG_FILE_BYTES },
};
