import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProfileSchema, resolveProfile } from '../../protocol/profiles';
import { parseAddArguments } from '../../native-host/cli/add';
import {
  DEMO_FILES,
  DEMO_PROFILE_ID,
  demoProfile,
  demoServerArgs,
  packageBinEntry,
  startLayout,
} from './demo';

const LAYOUT = startLayout('/src/my sy');
const ENTRIES = { filesystem: '/fs/index.js', memory: '/mem/index.js' };

describe('demoProfile', () => {
  const profile = demoProfile(LAYOUT);

  it('is a valid profile (the host would refuse anything else)', () => {
    expect(ProfileSchema.parse(profile)).toEqual(profile);
  });

  // Dangerous direction: a pattern that matches other sites would hand them the Demo profile's
  // allow rules.
  it.each([
    [pathToFileURL(LAYOUT.welcomeFile).href, DEMO_PROFILE_ID],
    [pathToFileURL(path.join(LAYOUT.files, 'project-notes.md')).href, DEMO_PROFILE_ID],
    [pathToFileURL(path.join(LAYOUT.root, 'README.md')).href, 'default'],
    [pathToFileURL(`${LAYOUT.files}-other/x.md`).href, 'default'],
    ['https://example.com/', 'default'],
    ['http://localhost:5173/', 'default'],
  ])('%s -> %s', (url, id) => {
    expect(resolveProfile([profile], url).profile.id).toBe(id);
  });

  it('offers the demo folder as the MCP root and allows only reads', () => {
    expect(profile.workspace).toBe(LAYOUT.files);
    for (const [pattern, decision] of Object.entries(profile.policy ?? {})) {
      expect(decision).toBe('allow');
      expect(pattern).toMatch(
        /^(files__(read_|list_|directory_tree|search_files|get_file_info)|memory__(read_graph|search_nodes|open_nodes))/,
      );
    }
  });
});

describe('demoServerArgs', () => {
  it('are what `switchyard add` parses into the intended servers', () => {
    const [files, memory] = demoServerArgs(LAYOUT, '/usr/bin/node', ENTRIES);
    expect(parseAddArguments(files?.args.slice(1) ?? [], '/elsewhere')).toEqual({
      ok: true,
      replace: true,
      server: { name: 'files', command: '/usr/bin/node', args: ['/fs/index.js', LAYOUT.files] },
    });
    expect(parseAddArguments(memory?.args.slice(1) ?? [], '/elsewhere')).toEqual({
      ok: true,
      replace: true,
      server: {
        name: 'memory',
        command: '/usr/bin/node',
        args: ['/mem/index.js'],
        env: { MEMORY_FILE_PATH: path.join(LAYOUT.home, 'memory.jsonl') },
      },
    });
  });
});

describe('packageBinEntry', () => {
  it.each([
    [{ bin: { 'mcp-server-memory': 'dist/index.js' } }, '/p/dist/index.js'],
    [{ bin: 'cli.js' }, '/p/cli.js'],
    [{}, '/p/dist/index.js'],
  ])('%j', (json, entry) => {
    expect(packageBinEntry('/p', json)).toBe(entry);
  });
});

describe('DEMO_FILES', () => {
  it('the welcome page says what the Demo profile does', () => {
    expect(DEMO_FILES['welcome.md']).toContain('Demo');
    expect(Object.keys(DEMO_FILES)).toEqual(['welcome.md', 'project-notes.md']);
  });
});
