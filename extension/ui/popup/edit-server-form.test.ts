import { describe, expect, it, test } from 'vitest';
import { serverSummary } from '../../testing/server-summary';
import { editFields, parseEditServerForm, type EditServerFields } from './edit-server-form';

// Dangerous direction: a kept secret sent as an empty string (the server loses its token), a
// removed variable kept, or a value the popup never saw appearing in the form.

const server = serverSummary(
  'memory',
  { state: 'stopped' },
  {
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-memory', 'My Notes'],
    envKeys: ['API_TOKEN', 'MEMORY_FILE_PATH'],
    cwd: '/home/alex',
  },
);

describe('editFields', () => {
  it('opens with the command line, the folder and the variables by name only', () => {
    expect(editFields(server)).toEqual({
      commandLine: "npx -y @modelcontextprotocol/server-memory 'My Notes'",
      written: [
        { key: 'API_TOKEN', replacement: '', removed: false },
        { key: 'MEMORY_FILE_PATH', replacement: '', removed: false },
      ],
      added: '',
      cwd: '/home/alex',
    });
  });
});

describe('parseEditServerForm', () => {
  const fields = editFields(server);

  it('sends the argv, null for each kept value, and the folder', () => {
    expect(parseEditServerForm('memory', fields)).toEqual({
      ok: true,
      params: {
        server: 'memory',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory', 'My Notes'],
        env: { API_TOKEN: null, MEMORY_FILE_PATH: null },
        cwd: '/home/alex',
      },
    });
  });

  it('replaces, removes and adds variables, and clears the folder', () => {
    const edited: EditServerFields = {
      commandLine: 'node /srv/memory.js --debug',
      written: [
        { key: 'API_TOKEN', replacement: '${MEMORY_TOKEN}', removed: false },
        { key: 'MEMORY_FILE_PATH', replacement: 'ignored', removed: true },
      ],
      added: 'LOG_LEVEL=debug\n# a comment\n',
      cwd: '  ',
    };
    expect(parseEditServerForm('memory', edited)).toEqual({
      ok: true,
      params: {
        server: 'memory',
        command: 'node',
        args: ['/srv/memory.js', '--debug'],
        env: { API_TOKEN: '${MEMORY_TOKEN}', LOG_LEVEL: 'debug' },
        cwd: null,
      },
    });
  });

  test.each<[string, Partial<EditServerFields>, string, RegExp]>([
    ['an empty command line', { commandLine: '  ' }, 'commandLine', /program to run/],
    ['an unclosed quote', { commandLine: 'node "a' }, 'commandLine', /quote/i],
    ['a variable set twice', { added: 'API_TOKEN=x' }, 'added', /already set above/],
    ['a line without =', { added: 'LOG_LEVEL' }, 'added', /no '='/],
  ])('refuses %s', (_, change, field, message) => {
    const result = parseEditServerForm('memory', { ...fields, ...change });
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.errors[field as 'added']).toMatch(message);
  });

  it('lets a removed variable be added again with a new value', () => {
    const result = parseEditServerForm('memory', {
      ...fields,
      written: [{ key: 'API_TOKEN', replacement: '', removed: true }],
      added: 'API_TOKEN=new',
    });
    expect(result.ok && result.params.env).toEqual({ API_TOKEN: 'new' });
  });
});
