import { describe, expect, test } from 'vitest';
import { EXPOSED_TOOL_NAME_PATTERN } from '../../protocol/tools';
import {
  MAX_EXPOSED_NAME_LENGTH,
  buildNameTable,
  type NameTable,
  type NameTableInput,
  type ServerToolListing,
} from './namespace';
import { seededRandom as prng } from '../../test/support/seeded-random';

// An illegal or colliding name is the dangerous direction: it breaks every later model turn or
// routes a call to the wrong server. A name that is merely uglier than it could be is harmless.

const HASH = '[0-9a-z]{7}';

function table(servers: ServerToolListing[], reserved: string[] = []): NameTable {
  return buildNameTable({ servers, reserved: new Set(reserved) });
}

function nameOf(server: string, tool: string, prefix?: string): string | undefined {
  return table([{ server, prefix, tools: [tool] }]).exposedOf(server, tool);
}

/** Every invariant the host relies on, for any table. */
function expectSound(result: NameTable, input: NameTableInput): void {
  const lower = new Set<string>();
  const reservedLower = new Set([...input.reserved].map((name) => name.toLowerCase()));
  for (const [name, ref] of result.byExposed) {
    expect(name).toMatch(EXPOSED_TOOL_NAME_PATTERN);
    expect(name).toMatch(/^[A-Za-z]/);
    expect(lower.has(name.toLowerCase())).toBe(false);
    expect(reservedLower.has(name.toLowerCase())).toBe(false);
    lower.add(name.toLowerCase());
    expect(result.exposedOf(ref.server, ref.tool)).toBe(name);
  }
}

function snapshot(result: NameTable): unknown {
  return {
    names: [...result.byExposed].map(([name, ref]) => [name, ref.server, ref.tool]),
    rejected: result.rejected,
  };
}

function shuffle<T>(items: ReadonlyArray<T>, random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('plain names', () => {
  test.each([
    ['github', 'search_issues', 'github__search_issues'],
    ['filesystem', 'read_file', 'filesystem__read_file'],
    ['Server-1', 'Get-Thing', 'Server-1__Get-Thing'],
    ['my.server', 'files.read', 'my_server__files_read'],
    ['a/b:c d', 'x', 'a_b_c_d__x'],
    ['srv', 'a...b', 'srv__a_b'],
    ['srv', 'a. /b', 'srv__a_b'],
    ['srv', 'ns/tool:v2', 'srv__ns_tool_v2'],
    ['café', 'créer', 'cafe__creer'],
    ['ｆｕｌｌ', 'ｗｉｄｔｈ', 'full__width'],
    ['__init__', '__call__', 'init__call'],
    ['srv', '_private', 'srv__private'],
    ['srv', 'trailing_', 'srv__trailing'],
    ['gh', 'a__b', 'gh__a_b'],
    ['9lives', 'go', 'x9lives__go'],
    ['-dash', 'go', 'x-dash__go'],
    ['srv', '1st', 'srv__1st'],
    ['srv', '中文 search', 'srv__search'],
    ['srv', 'emoji🔥tool', 'srv__emoji_tool'],
    ['srv', 'bidi\u202eevil', 'srv__bidi_evil'],
    ['srv', 'nul\u0000byte', 'srv__nul_byte'],
  ])('%j + %j -> %s', (server, tool, expected) => {
    expect(nameOf(server, tool)).toBe(expected);
  });

  test.each([
    ['🔥', 'go', `^server__go_${HASH}$`],
    ['', 'go', `^server__go_${HASH}$`],
    ['...', 'go', `^server__go_${HASH}$`],
    ['srv', '🔥', `^srv__tool_${HASH}$`],
    ['srv', '中文', `^srv__tool_${HASH}$`],
    ['srv', '___', `^srv__tool_${HASH}$`],
    ['srv', '\ud800', `^srv__tool_${HASH}$`],
  ])(
    'a part with nothing legal left gets a placeholder and the hash: %j + %j',
    (server, tool, re) => {
      expect(nameOf(server, tool)).toMatch(new RegExp(re));
    },
  );

  test('placeholders of different raw names differ', () => {
    const result = table([{ server: 'srv', tools: ['🔥', '💧', '中文', '日本'] }]);
    expect(new Set(result.byExposed.keys()).size).toBe(4);
  });
});

describe('server a__b + tool c never meets server a + tool b__c', () => {
  test.each([
    [
      [
        { server: 'a__b', tools: ['c'] },
        { server: 'a', tools: ['b__c'] },
      ],
    ],
    // These two do sanitize to the same plain name, so one must be disambiguated.
    [
      [
        { server: 'a_', tools: ['_b'] },
        { server: 'a', tools: ['b'] },
      ],
    ],
    [
      [
        { server: 'a.b', tools: ['c'] },
        { server: 'a_b', tools: ['c'] },
      ],
    ],
    [
      [
        { server: 'a', tools: ['b', 'B'] },
        { server: 'A', tools: ['b'] },
      ],
    ],
  ])('%j', (servers) => {
    const input = { servers, reserved: new Set<string>() };
    const result = buildNameTable(input);
    expectSound(result, input);
    const pairs = servers.flatMap((s) => s.tools.map((tool) => ({ server: s.server, tool })));
    expect(result.byExposed.size).toBe(pairs.length);
    for (const pair of pairs) {
      const name = result.exposedOf(pair.server, pair.tool);
      expect(name).toBeDefined();
      expect(result.byExposed.get(name!)).toEqual(pair);
    }
  });

  test('a name legal as written keeps it against one that sanitizing produced', () => {
    const result = table([
      { server: 'a_b', tools: ['c'] },
      { server: 'a.b', tools: ['c'] },
    ]);
    // Though '.' sorts before '_' by code unit: 'a_b__c' is a_b's own name.
    expect(result.exposedOf('a_b', 'c')).toBe('a_b__c');
    expect(result.exposedOf('a.b', 'c')).toMatch(new RegExp(`^a_b__c_${HASH}$`));
  });

  test('within one server too: shout_loud keeps its name against shout.loud', () => {
    const result = table([{ server: 's', tools: ['shout.loud', 'shout_loud'] }]);
    expect(result.exposedOf('s', 'shout_loud')).toBe('s__shout_loud');
    expect(result.exposedOf('s', 'shout.loud')).toMatch(new RegExp(`^s__shout_loud_${HASH}$`));
  });

  test('adding a server whose name needed sanitizing never renames a tool named legally', () => {
    const before = table([{ server: 'a_b', tools: ['c'] }]);
    const after = table([
      { server: 'a_b', tools: ['c'] },
      { server: 'a-b', tools: ['c'] },
      { server: 'a.b', tools: ['c'] },
      { server: 'a b', tools: ['c'] },
    ]);
    expect(after.exposedOf('a_b', 'c')).toBe(before.exposedOf('a_b', 'c'));
  });

  test('among names legal as written (they collide only by case), (server, tool) order decides', () => {
    const result = table([
      { server: 'a_b', tools: ['c'] },
      { server: 'A_B', tools: ['c'] },
    ]);
    // 'A' (0x41) sorts before 'a' (0x61).
    expect(result.exposedOf('A_B', 'c')).toBe('A_B__c');
    expect(result.exposedOf('a_b', 'c')).toMatch(new RegExp(`^a_b__c_${HASH}$`));
  });

  test('a contested name does not take an uncontested one', () => {
    // 'x.y' and 'x_y' contest 'x_y__t'; the hashed loser must never be a name someone else owns
    // uncontested, whatever the order.
    const result = table([
      { server: 'x.y', tools: ['t'] },
      { server: 'x_y', tools: ['t'] },
      { server: 'z', tools: ['t'] },
    ]);
    expect(result.exposedOf('z', 't')).toBe('z__t');
  });
});

describe('prefix override', () => {
  test.each([
    ['github', 'gh', 'search', 'gh__search'],
    ['github', 'g h', 'search', 'g_h__search'],
    ['github', 'gh__', 'search', 'gh__search'],
    ['github', '', 'search', 'github__search'],
    ['github', '...', 'search', 'github__search'],
    ['github', '🔥', 'search', 'github__search'],
    ['github', '42', 'search', 'x42__search'],
    ['github', undefined, 'search', 'github__search'],
  ])('server %j prefix %j tool %j -> %s', (server, prefix, tool, expected) => {
    expect(nameOf(server, tool, prefix)).toBe(expected);
  });

  test('two servers sharing a prefix are disambiguated, not merged', () => {
    const input = {
      servers: [
        { server: 'one', prefix: 'p', tools: ['t', 'u'] },
        { server: 'two', prefix: 'p', tools: ['t', 'v'] },
      ],
      reserved: new Set<string>(),
    };
    const result = buildNameTable(input);
    expectSound(result, input);
    expect(result.exposedOf('one', 't')).toBe('p__t');
    expect(result.exposedOf('two', 't')).toMatch(new RegExp(`^p__t_${HASH}$`));
    expect(result.exposedOf('one', 'u')).toBe('p__u');
    expect(result.exposedOf('two', 'v')).toBe('p__v');
  });

  test('a prefix equal to another server name collides like any other name', () => {
    const result = table([
      { server: 'a', tools: ['t'] },
      { server: 'b', prefix: 'a', tools: ['t'] },
    ]);
    expect(result.exposedOf('a', 't')).toBe('a__t');
    expect(result.exposedOf('b', 't')).toMatch(new RegExp(`^a__t_${HASH}$`));
  });
});

describe('reserved built-in names', () => {
  test.each([
    ['browser__navigate', 'browser', 'navigate'],
    ['Browser__Navigate', 'browser', 'navigate'],
    ['browser__navigate', 'BROWSER', 'NAVIGATE'],
    ['a_b__c', 'a.b', 'c'],
  ])('reserved %j is never handed to %j + %j', (reserved, server, tool) => {
    const input = { servers: [{ server, tools: [tool] }], reserved: new Set([reserved]) };
    const result = buildNameTable(input);
    expectSound(result, input);
    expect(result.exposedOf(server, tool)).toMatch(new RegExp(`_${HASH}$`));
    expect(result.byExposed.has(reserved)).toBe(false);
  });

  test('a reserved name that looks like a hashed name is avoided too', () => {
    const first = table([
      { server: 'a', tools: ['t'] },
      { server: 'b', prefix: 'a', tools: ['t'] },
    ]);
    const hashed = first.exposedOf('b', 't')!;
    const input = {
      servers: [
        { server: 'a', tools: ['t'] },
        { server: 'b', prefix: 'a', tools: ['t'] },
      ],
      reserved: new Set([hashed]),
    };
    const second = buildNameTable(input);
    expectSound(second, input);
    expect(second.exposedOf('b', 't')).not.toBe(hashed);
  });
});

describe('order independence and stability', () => {
  const servers: ServerToolListing[] = [
    { server: 'github', tools: ['search', 'create_issue', 'get.file', 'x'.repeat(80)] },
    { server: 'gh', prefix: 'github', tools: ['search', 'list'] },
    { server: 'a__b', tools: ['c', 'C'] },
    { server: 'a', tools: ['b__c', 'B__c'] },
    { server: 'a.b', tools: ['c', 'dup', 'dup'] },
    { server: 'fs', tools: ['read_file', 'read.file', 'read file', '🔥', '💧', ''] },
    { server: 'twice', tools: ['one'] },
    { server: 'twice', tools: ['two'] },
  ];
  const reserved = new Set(['fs__read_file', 'navigate', 'github__search']);
  const expected = snapshot(buildNameTable({ servers, reserved }));

  test.each(Array.from({ length: 25 }, (_, i) => [i + 1]))(
    'shuffle %i of servers and tools gives the same table',
    (seed) => {
      const random = prng(seed);
      const shuffled = shuffle(servers, random).map((s) => ({
        ...s,
        tools: shuffle(s.tools, random),
      }));
      const input = { servers: shuffled, reserved: new Set(shuffle([...reserved], random)) };
      const result = buildNameTable(input);
      expectSound(result, input);
      expect(snapshot(result)).toEqual(expected);
    },
  );

  test('names are pinned across releases for a fixed input', () => {
    // A changed hash renames tools in stored transcripts and policies: change it on purpose only.
    // Values cross-checked against an independent FNV-1a implementation.
    const result = table([
      { server: 'a.b', tools: ['c'] },
      { server: 'a_b', tools: ['c'] },
      { server: 's', tools: ['t'.repeat(70)] },
    ]);
    // Changed on purpose in issue 13: the name legal as written keeps it, 'a.b' is hashed.
    expect(result.exposedOf('a_b', 'c')).toBe('a_b__c');
    expect(result.exposedOf('a.b', 'c')).toBe('a_b__c_1b8m1ic');
    expect(result.exposedOf('s', 't'.repeat(70))).toBe(`s__${'t'.repeat(53)}_1n6wt04`);
  });
});

describe('length', () => {
  test.each([
    ['s', 61, false],
    ['s', 62, true],
    ['server', 56, false],
    ['server', 57, true],
  ])('server %j + tool of %i chars: hashed=%s', (server, toolLength, hashed) => {
    const tool = 't'.repeat(toolLength);
    const name = nameOf(server, tool)!;
    expect(name).toMatch(EXPOSED_TOOL_NAME_PATTERN);
    if (hashed) {
      expect(name).toHaveLength(MAX_EXPOSED_NAME_LENGTH);
      expect(name).toMatch(new RegExp(`^${server}__t+_${HASH}$`));
    } else {
      expect(name).toBe(`${server}__${tool}`);
      expect(name.length).toBeLessThanOrEqual(MAX_EXPOSED_NAME_LENGTH);
    }
  });

  test.each([
    ['S'.repeat(100), 'T'.repeat(100), `^${'S'.repeat(20)}_${'T'.repeat(34)}_${HASH}$`],
    ['S'.repeat(200), 'read', `^${'S'.repeat(50)}_read_${HASH}$`],
    ['gh', 'T'.repeat(5000), `^gh__${'T'.repeat(52)}_${HASH}$`],
    ['S'.repeat(19) + '_x', 'T'.repeat(100), `^${'S'.repeat(19)}_${'T'.repeat(35)}_${HASH}$`],
    ['srv', 'a'.repeat(50) + '_' + 'b'.repeat(20), `^srv__${'a'.repeat(50)}_${HASH}$`],
  ])('overlong %#: keeps a readable head of both parts', (server, tool, re) => {
    const name = nameOf(server, tool)!;
    expect(name).toMatch(new RegExp(re));
    expect(name.length).toBeLessThanOrEqual(MAX_EXPOSED_NAME_LENGTH);
  });

  // A server chooses its tool names, and so where a long head is cut: a cut head must never
  // read as the whole head of another server, whose `head__*` rules would then match.
  test.each([
    ['filesystem-documents-archive2', 'delete_everything_in_the_home_folder_now'],
    ['filesystem-documents-archive2', 'x'.repeat(40)],
    ['S'.repeat(19) + '_x', 'T'.repeat(100)],
    ['a'.repeat(64), 'read'],
  ])('overlong %#: a cut head is joined by one "_", so no head__* rule matches', (server, tool) => {
    const name = nameOf(server, tool)!;
    expect(name).not.toContain('__');
    expect(name.length).toBeLessThanOrEqual(MAX_EXPOSED_NAME_LENGTH);
  });

  test('long names that differ only past the cut stay distinct', () => {
    const stem = 'x'.repeat(100);
    const tools = Array.from({ length: 200 }, (_, i) => `${stem}${i}`);
    const input = { servers: [{ server: 'srv', tools }], reserved: new Set<string>() };
    const result = buildNameTable(input);
    expectSound(result, input);
    expect(result.byExposed.size).toBe(200);
  });
});

describe('rejected tools', () => {
  test.each([
    [
      'a duplicate raw name registers neither copy',
      [{ server: 's', tools: ['a', 'b', 'a'] }],
      [{ server: 's', tool: 'a', reason: 'duplicate-tool' }],
      ['b'],
    ],
    [
      'a name listed three times is reported once',
      [{ server: 's', tools: ['a', 'a', 'a'] }],
      [{ server: 's', tool: 'a', reason: 'duplicate-tool' }],
      [],
    ],
    [
      'an empty raw name',
      [{ server: 's', tools: ['', 'b'] }],
      [{ server: 's', tool: '', reason: 'empty-name' }],
      ['b'],
    ],
    [
      'a server listed twice registers none of its tools',
      [
        { server: 's', tools: ['a'] },
        { server: 't', tools: ['a'] },
        { server: 's', prefix: 'p', tools: ['b', 'a'] },
      ],
      [
        { server: 's', tool: 'a', reason: 'duplicate-server' },
        { server: 's', tool: 'b', reason: 'duplicate-server' },
      ],
      [],
    ],
  ])('%s', (_label, servers, rejected, kept) => {
    const result = table(servers);
    expect(result.rejected).toEqual(rejected);
    for (const r of rejected) expect(result.exposedOf(r.server, r.tool)).toBeUndefined();
    for (const tool of kept) expect(result.exposedOf('s', tool)).toBe(`s__${tool}`);
    for (const ref of result.byExposed.values()) {
      expect(rejected.some((r) => r.server === ref.server && r.tool === ref.tool)).toBe(false);
    }
  });

  test('near-duplicates are not duplicates', () => {
    const result = table([
      { server: 's', tools: ['read_file', 'read.file', 'Read_File', 'read file'] },
    ]);
    expect(result.rejected).toEqual([]);
    expect(result.byExposed.size).toBe(4);
  });
});

describe('fuzz: 10,000 adversarial (server, tool) pairs', () => {
  const FRAGMENTS = [
    'a',
    'b',
    'A',
    'read',
    'Read',
    'READ',
    'file',
    'tool',
    'server',
    '0',
    '9',
    '_',
    '__',
    '___',
    '-',
    '.',
    '/',
    ':',
    ' ',
    '\t',
    '\u0000',
    'é',
    'e\u0301',
    'ｆ',
    '中文',
    '🔥',
    '👩‍💻',
    '\u202e',
    '\u200b',
    '\ud800',
    'x'.repeat(40),
    'y'.repeat(70),
  ];

  function randomName(random: () => number): string {
    const parts = 1 + Math.floor(random() * 5);
    let out = '';
    for (let i = 0; i < parts; i++) out += FRAGMENTS[Math.floor(random() * FRAGMENTS.length)] ?? '';
    return out;
  }

  test('every name is legal, distinct and routes back to its pair', () => {
    const random = prng(0x5eed);
    const servers: ServerToolListing[] = [];
    const serverNames = new Set<string>();
    const prefixes = ['gh', 'a', 'a__b', '', '🔥', 'x'.repeat(80)];
    let pairCount = 0;
    while (pairCount < 10_000) {
      const server = randomName(random);
      if (serverNames.has(server)) continue;
      serverNames.add(server);
      const tools = new Set<string>();
      const size = 1 + Math.floor(random() * 150);
      while (tools.size < size) tools.add(randomName(random));
      // Near-duplicates of an existing name: a case flip and added separators.
      const first = [...tools][0]!;
      tools.add(first.toUpperCase()).add(`${first}.`).add(`_${first}`);
      const listing = [...tools];
      const prefix = random() < 0.2 ? prefixes[Math.floor(random() * prefixes.length)] : undefined;
      servers.push({ server, prefix, tools: listing });
      pairCount += listing.length;
    }
    // One exact duplicate, to be rejected.
    const victim = servers[3]!;
    servers[3] = { ...victim, tools: [...victim.tools, victim.tools[0]!] };

    const reserved = new Set<string>(['navigate', 'read_page']);
    for (const s of servers.slice(0, 50)) reserved.add(`${s.server}__${s.tools[0]!}`);

    const input = { servers, reserved };
    const result = buildNameTable(input);
    expectSound(result, input);

    const expectedRegistered = servers.reduce(
      (sum, s) => sum + new Set(s.tools.filter((t) => t !== '')).size,
      0,
    );
    expect(result.rejected).toEqual([
      { server: victim.server, tool: victim.tools[0], reason: 'duplicate-tool' },
    ]);
    expect(result.byExposed.size).toBe(expectedRegistered - 1);
    for (const s of servers) {
      for (const tool of s.tools) {
        if (s === servers[3] && tool === victim.tools[0]) continue;
        const name = result.exposedOf(s.server, tool);
        expect(name).toBeDefined();
        expect(result.byExposed.get(name!)).toEqual({ server: s.server, tool });
      }
    }
  });
});
