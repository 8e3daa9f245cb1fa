import { describe, expect, test } from 'vitest';
import { MemorySecretStore } from '../testing/memory-secret-store';
import { expandEnvValue, referencedVariables } from './env';
import { missingVariablesMessage, resolveVariables } from './variables';

describe('referencedVariables', () => {
  test.each([
    [['plain'], []],
    [['${A}'], [{ name: 'A', optional: false }]],
    [
      ['${env:A}-${B:-x}'],
      [
        { name: 'A', optional: false },
        { name: 'B', optional: true },
      ],
    ],
    [['${B:-x}', '${B}'], [{ name: 'B', optional: false }]],
    [['$${A}', '$A', '${1}'], []],
    [['${A}${A}'], [{ name: 'A', optional: false }]],
  ])('%j', (values, expected) => {
    expect(referencedVariables(values)).toEqual(expected);
  });
});

// Dangerous direction: a server started with a variable silently empty, or a stored value
// overriding what the user exported in the shell.
describe('resolveVariables: the environment, then the store', () => {
  const store = new MemorySecretStore({ 'var:TOKEN': 'from-store', 'var:OTHER': 'stored-other' });
  const sources = (env: Record<string, string>, s = store) => ({
    env,
    platform: 'linux' as const,
    store: () => Promise.resolve(s),
  });

  test.each<{
    name: string;
    env: Record<string, string>;
    value: string;
    expanded: string;
    missing: string[];
    fromStore: string[];
  }>([
    {
      name: 'the environment wins',
      env: { TOKEN: 'exported' },
      value: '${TOKEN}',
      expanded: 'exported',
      missing: [],
      fromStore: [],
    },
    {
      name: 'an empty export is set',
      env: { TOKEN: '' },
      value: '${TOKEN}',
      expanded: '',
      missing: [],
      fromStore: [],
    },
    {
      name: 'else the store',
      env: {},
      value: 'Bearer ${TOKEN}',
      expanded: 'Bearer from-store',
      missing: [],
      fromStore: ['TOKEN'],
    },
    {
      name: 'unset everywhere is missing',
      env: {},
      value: '${NOPE}',
      expanded: '',
      missing: ['NOPE'],
      fromStore: [],
    },
    {
      name: 'a default covers an unset one',
      env: {},
      value: '${NOPE:-dflt}',
      expanded: 'dflt',
      missing: [],
      fromStore: [],
    },
    {
      name: 'a stored value beats a default',
      env: {},
      value: '${OTHER:-dflt}',
      expanded: 'stored-other',
      missing: [],
      fromStore: ['OTHER'],
    },
    {
      name: 'a stored value is not expanded again',
      env: {},
      value: '${TOKEN}',
      expanded: 'from-store',
      missing: [],
      fromStore: ['TOKEN'],
    },
  ])('$name', async ({ env, value, expanded, missing, fromStore }) => {
    const resolution = await resolveVariables([value], sources(env));
    expect(expandEnvValue(value, resolution.lookup).value).toBe(expanded);
    expect(resolution.missing).toEqual(missing);
    expect(resolution.fromStore).toEqual(fromStore);
  });

  test('the store is not asked when the environment has every name', async () => {
    const counting = new MemorySecretStore({ 'var:A': 'x' });
    let opened = 0;
    await resolveVariables(['${A}', '${B:-y}'], {
      env: { A: '1', B: '2' },
      platform: 'linux',
      store: () => {
        opened += 1;
        return Promise.resolve(counting);
      },
    });
    expect(opened).toBe(0);
    expect(counting.reads).toEqual([]);
  });

  test('only names the environment lacks are read from the store', async () => {
    const counting = new MemorySecretStore({});
    await resolveVariables(['${A}', '${B}'], sources({ A: '1' }, counting));
    expect(counting.reads).toEqual(['var:B']);
  });

  test('a store that cannot be read leaves the names missing and says why', async () => {
    const broken = new MemorySecretStore({ 'var:A': 'x' });
    broken.failWith = new Error('secret-tool did not answer within 15000 ms');
    const resolution = await resolveVariables(['${A}', '${B:-ok}'], sources({}, broken));
    expect(resolution.missing).toEqual(['A']);
    expect(resolution.storeError).toMatch(/did not answer/);
    expect(expandEnvValue('${B:-ok}', resolution.lookup).value).toBe('ok');
  });

  test('without a store only the environment counts', async () => {
    const resolution = await resolveVariables(['${A}'], { env: {}, platform: 'linux' });
    expect(resolution.missing).toEqual(['A']);
  });

  test('Windows looks the environment up case-insensitively', async () => {
    const resolution = await resolveVariables(['${Token}'], {
      env: { TOKEN: 'exported' },
      platform: 'win32',
      store: () => Promise.resolve(store),
    });
    expect(expandEnvValue('${Token}', resolution.lookup).value).toBe('exported');
  });
});

describe('missingVariablesMessage', () => {
  test.each([
    [
      ['GITHUB_TOKEN'],
      undefined,
      "'github' needs GITHUB_TOKEN, which is not set: set it with `switchyard secret set GITHUB_TOKEN`, or export it before starting the browser.",
    ],
    [
      ['A', 'B'],
      undefined,
      "'github' needs A and B, which are not set: set them with `switchyard secret set A` and `switchyard secret set B`, or export them before starting the browser.",
    ],
    [
      ['A', 'B', 'C'],
      'locked',
      "'github' needs A, B and C, which are not set: set them with `switchyard secret set A`, `switchyard secret set B` and `switchyard secret set C`, or export them before starting the browser. The secret store could not be read: locked",
    ],
  ])('%j', (missing, storeError, message) => {
    expect(
      missingVariablesMessage('github', { missing, ...(storeError ? { storeError } : {}) }),
    ).toBe(message);
  });
});
