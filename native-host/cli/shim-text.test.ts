import { describe, expect, it } from 'vitest';
import type { ServerSpec } from '../shared/server-spec';
import { fakeServerSpec } from '../testing/server-spec';
import { runsLines } from './add';
import { serversTable } from './doctor';
import { shimNotes, shimSection } from './shim-text';

// The dangerous direction: a report that shows the command as written, or node without the
// script, so the user cannot see what actually runs for a Windows npm shim (decision 0014).

const NODE = 'C:\\Program Files\\nodejs\\node.exe';
const NPX_CMD = 'C:\\Program Files\\nodejs\\npx.cmd';
const NPX_CLI = 'C:\\Program Files\\nodejs\\node_modules\\npm\\bin\\npx-cli.js';
const SHIM = 'C:\\Users\\ada\\AppData\\Roaming\\npm\\mcp-server-filesystem.cmd';
const SCRIPT = 'C:\\Users\\ada\\AppData\\Roaming\\npm\\node_modules\\x\\dist\\index.js';

function viaShim(name: string, over: Partial<ServerSpec> & Pick<ServerSpec, 'shim'>): ServerSpec {
  const shim = over.shim;
  const args = over.args ?? [];
  return fakeServerSpec(name, {
    ...over,
    resolvedCommand: NODE,
    definition: {
      executable: NODE,
      args: [...(shim?.prefixArgs ?? []), ...args],
      env: {},
      cwd: null,
      provenance: 'user',
      workspaceRoot: null,
    },
  });
}

const memory = viaShim('memory', {
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-memory'],
  shim: { file: NPX_CMD, kind: 'npm-cli', prefixArgs: [NPX_CLI] },
});
const files = viaShim('files', {
  command: 'mcp-server-filesystem',
  args: ['C:\\notes'],
  shim: { file: SHIM, kind: 'cmd-shim', prefixArgs: [SCRIPT] },
});
const plain = fakeServerSpec('plain');

describe('shimNotes and shimSection', () => {
  it('list only the servers whose command was a shim, with the argv that runs', () => {
    expect(shimNotes([memory, plain, files])).toEqual([
      {
        server: 'memory',
        file: NPX_CMD,
        kind: 'npm-cli',
        runs: [NODE, NPX_CLI, '-y', '@modelcontextprotocol/server-memory'],
      },
      { server: 'files', file: SHIM, kind: 'cmd-shim', runs: [NODE, SCRIPT, 'C:\\notes'] },
    ]);
  });

  it('print what was written, what runs and where it was read', () => {
    const lines = shimSection([memory, plain, files]).split('\n');
    expect(lines).toEqual([
      'Windows npm shims, read instead of run (Switchyard runs no batch file):',
      '  memory: npx -y @modelcontextprotocol/server-memory',
      `    runs '${NODE}' '${NPX_CLI}' -y @modelcontextprotocol/server-memory`,
      `    read from ${NPX_CMD} (npm's own shim; read, never run), as the npm beside it, not one installed in your global prefix`,
      '  files: mcp-server-filesystem C:\\notes',
      `    runs '${NODE}' ${SCRIPT} C:\\notes`,
      `    read from ${SHIM} (the shim npm wrote for the package's bin; read, never run)`,
      '',
    ]);
  });

  it('print nothing when no command was a shim', () => {
    expect(shimSection([plain])).toBe('');
  });
});

describe("doctor's table shows the argv that runs", () => {
  it('node and the script for a shim; the resolved program and args otherwise', () => {
    const summary = (spec: ServerSpec) => ({
      ...({
        name: spec.name,
        provenance: 'user',
        workspaceRoot: null,
        disabled: false,
        apps: true,
      } as const),
      ...{ command: spec.command, args: [...spec.args], resolvedCommand: spec.resolvedCommand },
      ...{
        cwd: null,
        envKeys: [],
        remote: null,
        status: { state: 'stopped' } as const,
        crashes: null,
        toolCount: 0,
        tokens: 0,
      },
    });
    const runs = new Map(shimNotes([memory, plain]).map((n) => [n.server, n.runs]));
    const lines = serversTable([summary(memory), summary(plain)], runs).split('\n');
    expect(lines[1]).toMatch(/ C:\\Program Files\\nodejs\\node\.exe C:\\.*\\npx-cli\.js -y @model/);
    expect(lines[2]).toMatch(/ \/usr\/bin\/fake server\.js$/);
  });
});

describe("add's report of what it approved", () => {
  it.each([
    {
      name: 'a program',
      added: { executable: '/usr/bin/node', shim: null },
      lines: ['  runs:         /usr/bin/node'],
    },
    { name: 'not found', added: { executable: null, shim: null }, lines: ['  runs:         ?'] },
    {
      name: 'an npm shim',
      added: {
        executable: NODE,
        shim: { file: SHIM, kind: 'cmd-shim' as const, prefixArgs: [SCRIPT] },
      },
      lines: [
        `  runs:         '${NODE}' ${SCRIPT} + the args`,
        `                read from ${SHIM} (the shim npm wrote for the package's bin; read, never run)`,
      ],
    },
  ])('$name', ({ added, lines }) => {
    expect(runsLines(added)).toEqual(lines);
  });
});
