import { describe, expect, test } from 'vitest';
import type { Profile, ProfileMode } from '../../protocol/profiles';
import type { Hint } from '../shared/tool-definition';
import { filtersShow, modeShows, profileEnablesServer, profileShowsTool } from './filters';

// Banner: showing a tool the profile hides is the dangerous direction (the model can call it,
// and the host would route it). Hiding one it shows only costs an edit of the profile.

const HINTS: readonly Hint[] = [true, false, undefined, 'malformed'];

/** Expected visibility by mode, readOnlyHint, destructiveHint: the whole truth table. */
function expected(mode: ProfileMode, readOnly: Hint, destructive: Hint): boolean {
  const declaredDestructive = destructive === true || destructive === 'malformed';
  if (mode === 'full') return true;
  if (mode === 'standard') return !declaredDestructive;
  return readOnly === true && !declaredDestructive;
}

const TRUTH_TABLE = (['read-only', 'standard', 'full'] as const).flatMap((mode) =>
  HINTS.flatMap((readOnly) =>
    HINTS.map(
      (destructive) =>
        [mode, readOnly, destructive, expected(mode, readOnly, destructive)] as const,
    ),
  ),
);

describe('modeShows', () => {
  test.each(TRUTH_TABLE)(
    '%s with readOnlyHint %s, destructiveHint %s: shown %s',
    (mode, readOnlyHint, destructiveHint, shown) => {
      expect(modeShows(mode, { readOnlyHint, destructiveHint })).toBe(shown);
    },
  );

  test('has 48 rows and spells out the cases that matter', () => {
    expect(TRUTH_TABLE).toHaveLength(48);
    // A read-only claim is needed in read-only mode; no claim is not enough.
    expect(modeShows('read-only', { readOnlyHint: undefined, destructiveHint: false })).toBe(false);
    // A malformed hint reads as the tighter value.
    expect(modeShows('read-only', { readOnlyHint: 'malformed', destructiveHint: false })).toBe(
      false,
    );
    expect(modeShows('standard', { readOnlyHint: true, destructiveHint: 'malformed' })).toBe(false);
    // Contradictory claims hide.
    expect(modeShows('read-only', { readOnlyHint: true, destructiveHint: true })).toBe(false);
    // The spec's default for a missing destructiveHint is not a claim (D8).
    expect(modeShows('standard', { readOnlyHint: undefined, destructiveHint: undefined })).toBe(
      true,
    );
  });
});

const base: Profile = { id: 'p', name: 'P', match: [], mode: 'full' };

describe('filtersShow', () => {
  const CASES: ReadonlyArray<
    readonly [
      label: string,
      include: string[] | undefined,
      exclude: string[] | undefined,
      name: string,
      shown: boolean,
    ]
  > = [
    ['no filters', undefined, undefined, 'github__search', true],
    ['an include that matches', ['github__*'], undefined, 'github__search', true],
    ['an include that does not', ['github__*'], undefined, 'gitlab__search', false],
    ['an empty include', [], undefined, 'github__search', false],
    ['an exclude that matches', undefined, ['*__delete_*'], 'github__delete_repo', false],
    ['an exclude that does not', undefined, ['*__delete_*'], 'github__search', true],
    [
      'exclude wins over include',
      ['github__*'],
      ['github__delete_*'],
      'github__delete_repo',
      false,
    ],
    ['a glob matches the whole name', ['github'], undefined, 'github__search', false],
    ['globs are case-sensitive', ['GitHub__*'], undefined, 'github__search', false],
    ['? is one character', ['github__s?arch'], undefined, 'github__search', true],
    ['an exclude is case-sensitive too', undefined, ['GITHUB__*'], 'github__search', true],
  ];

  test.each(CASES)('%s', (_label, include, exclude, name, shown) => {
    const profile: Profile = {
      ...base,
      ...(include === undefined ? {} : { include }),
      ...(exclude === undefined ? {} : { exclude }),
    };
    expect(filtersShow(profile, name)).toBe(shown);
  });
});

describe('profileEnablesServer', () => {
  const shared = new Set(['/work/shared']);
  const user = { name: 'github', workspaceRoot: null };
  const sharedServer = { name: 'lint', workspaceRoot: '/work/shared' };
  const shopServer = { name: 'shop-db', workspaceRoot: '/home/alex/src/webshop' };

  const CASES: ReadonlyArray<
    readonly [
      label: string,
      profile: Partial<Profile>,
      server: typeof user | typeof shopServer,
      enabled: boolean,
    ]
  > = [
    ['all servers: a user-tier one', {}, user, true],
    ['all servers: a shared workspace one', {}, sharedServer, true],
    ['all servers: another profile folder', {}, shopServer, false],
    ['all servers: its own folder', { workspace: '/home/alex/src/webshop' }, shopServer, true],
    [
      'its own folder, spelled with a trailing slash',
      { workspace: '/home/alex/src/webshop/' },
      shopServer,
      true,
    ],
    ['a parent folder is not its folder', { workspace: '/home/alex/src' }, shopServer, false],
    ['listed', { servers: ['github'] }, user, true],
    ['not listed', { servers: ['gitlab'] }, user, false],
    ['an empty list', { servers: [] }, user, false],
    ['a list names another folder server', { servers: ['shop-db'] }, shopServer, true],
    [
      'a list leaves out its own folder server',
      { servers: ['github'], workspace: '/home/alex/src/webshop' },
      shopServer,
      false,
    ],
    ['names are exact', { servers: ['GitHub'] }, user, false],
  ];

  test.each(CASES)('%s', (_label, profile, server, enabled) => {
    expect(profileEnablesServer({ ...base, ...profile }, server, shared)).toBe(enabled);
  });
});

describe('profileShowsTool', () => {
  const tool = {
    server: { name: 'github', workspaceRoot: null },
    exposedName: 'github__delete_repo',
    claims: { readOnlyHint: undefined, destructiveHint: true },
  } as const;
  const none = new Set<string>();

  test('needs the server, the filters and the mode all to agree', () => {
    expect(profileShowsTool(base, tool, none)).toBe(true);
    expect(profileShowsTool({ ...base, servers: [] }, tool, none)).toBe(false);
    expect(profileShowsTool({ ...base, exclude: ['*__delete_*'] }, tool, none)).toBe(false);
    expect(profileShowsTool({ ...base, mode: 'standard' }, tool, none)).toBe(false);
  });
});
