import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../protocol/profiles';
import { HostCore } from '../host/core';
import { type ServerSpec } from '../shared/server-spec';
import { fakeServerSpec } from '../testing/server-spec';
import type { ToolPolicyRules } from '../policy/tool-policy';
import { inMemoryLauncher } from '../testing/in-memory-launcher';
import { TrustStore } from '../trust/trust-store';
import { ProfileStore, type ProfileSetup } from './store';
import { approvalOf, reasonOf } from '../testing/host-errors';

// The host is the enforcement point for profiles (design D10): a tool the active profile hides
// must not exist for that call, whatever the caller sends. Banner: a hidden tool that reaches its
// server is the dangerous direction; every test below also checks what the servers saw.

interface FakeTool {
  readonly name: string;
  readonly annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

const SERVERS: Record<string, FakeTool[]> = {
  github: [
    { name: 'search', annotations: { readOnlyHint: true } },
    { name: 'create_issue' },
    { name: 'delete_repo', annotations: { destructiveHint: true } },
  ],
  notes: [{ name: 'read', annotations: { readOnlyHint: true } }, { name: 'write' }],
};

const spec = (name: string): ServerSpec => fakeServerSpec(name, { args: [] });

/** In-memory servers that record every call and every roots answer they got. */
function fakeServers() {
  const calls: string[] = [];
  const roots = new Map<string, string[][]>();
  const { spawnServer } = inMemoryLauncher({
    tools: (launch) =>
      (SERVERS[launch.name] ?? []).map((tool) => ({
        name: tool.name,
        description: `${tool.name} of ${launch.name}`,
        annotations: tool.annotations ?? {},
        call: () => {
          calls.push(`${launch.name}/${tool.name}`);
          return { content: [{ type: 'text', text: 'done' }] };
        },
      })),
    setup: (mcp, launch) => {
      const seen: string[][] = [];
      roots.set(launch.name, seen);
      const fetchRoots = async () => {
        // A 2025-11-25 server asks for roots this way (deprecated by 2026-07-28, SEP-2577).
        // eslint-disable-next-line @typescript-eslint/no-deprecated
        const answer = await mcp.server.listRoots();
        seen.push(answer.roots.map((root) => root.uri));
      };
      mcp.server.oninitialized = () => {
        void fetchRoots();
      };
      mcp.server.setNotificationHandler('notifications/roots/list_changed', fetchRoots);
    },
  });
  return { spawnServer, calls, roots };
}

const githubSite: Profile = {
  id: 'github-site',
  name: 'GitHub',
  match: ['https://github.com/*'],
  servers: ['github'],
  mode: 'read-only',
};
const notesSite: Profile = {
  id: 'notes-site',
  name: 'Notes',
  match: ['http://localhost:5173/*'],
  servers: ['notes'],
  exclude: ['notes__write'],
  mode: 'standard',
  policy: { notes__read: 'allow' },
  workspace: '/home/alex/notes',
  tokenBudget: 1,
};

async function host(
  options: {
    toolPolicy?: ToolPolicyRules;
    profiles?: Profile[];
    /** Pins of `notes` tools whose description differs from what the server lists now (D7). */
    stalePins?: string[];
  } = {},
) {
  const home = mkdtempSync(path.join(tmpdir(), 'sy-profiles-core-'));
  const trust = await TrustStore.open(home);
  const specs = [spec('github'), spec('notes')];
  for (const s of specs) if (s.definition) await trust.approveLaunch(s.scope, s.name, s.definition);
  const notes = specs[1];
  for (const tool of options.stalePins ?? []) {
    if (notes === undefined) break;
    await trust.pinTool(notes.scope, 'notes', {
      name: tool,
      description: 'what the user approved once',
      inputSchema: { type: 'object' },
    });
  }
  const fake = fakeServers();
  let written: Profile[] = options.profiles ?? [githubSite, notesSite];
  const setup: ProfileSetup = { profiles: written, sharedWorkspaces: [] };
  const core = new HostCore({
    servers: specs,
    spawnServer: fake.spawnServer,
    clientInfo: { name: 'test', version: '0' },
    trust,
    toolPolicy: options.toolPolicy ?? [],
    profiles: new ProfileStore(setup),
    saveProfiles: {
      set: (profile) => {
        const at = written.findIndex((p) => p.id === profile.id);
        written = at < 0 ? [...written, profile] : written.map((p, i) => (i === at ? profile : p));
        return Promise.resolve(written);
      },
      remove: (id) => {
        const before = written.length;
        written = written.filter((p) => p.id !== id);
        return Promise.resolve({ removed: written.length < before, profiles: written });
      },
    },
  });
  await core.startAll();
  return { core, ...fake };
}

const names = (core: HostCore, profile?: string) =>
  core.listTools(undefined, profile === undefined ? {} : { profile }).tools.map((t) => t.name);

describe('profiles in the host core', () => {
  it('lists only what each profile shows', async () => {
    const { core } = await host();
    try {
      expect(names(core)).toEqual([
        'github__create_issue',
        'github__delete_repo',
        'github__search',
        'notes__read',
        'notes__write',
      ]);
      expect(names(core, 'github-site')).toEqual(['github__search']);
      expect(names(core, 'notes-site')).toEqual(['notes__read']);
    } finally {
      await core.shutdown();
    }
  });

  it('refuses a call to a hidden tool as an unknown tool, and the server never sees it', async () => {
    const { core, calls } = await host();
    try {
      for (const [profile, tool] of [
        ['github-site', 'github__delete_repo'],
        ['github-site', 'github__create_issue'],
        ['github-site', 'notes__read'],
        ['notes-site', 'notes__write'],
        ['notes-site', 'github__search'],
      ] as const) {
        expect(await reasonOf(core.callTool(tool, {}, { profile }))).toBe('unknown-tool');
      }
      expect(calls).toEqual([]);
    } finally {
      await core.shutdown();
    }
  });

  it('does not redeem an approval under a profile that hides the tool', async () => {
    const { core, calls } = await host();
    try {
      const asked: unknown = await core
        .callTool('github__create_issue', {})
        .catch((e: unknown) => e);
      const { requestId, nonce } = approvalOf(asked);
      const approval = { requestId, nonce };
      expect(
        await reasonOf(
          core.callTool('github__create_issue', {}, { approval, profile: 'github-site' }),
        ),
      ).toBe('unknown-tool');
      expect(calls).toEqual([]);
      // The refusal did not consume it: the call it was issued for still runs.
      await core.callTool('github__create_issue', {}, { approval });
      expect(calls).toEqual(['github/create_issue']);
    } finally {
      await core.shutdown();
    }
  });

  it('asks about every call in a read-only profile, allow rule or not', async () => {
    const { core, calls } = await host({ toolPolicy: [{ glob: 'github__*', value: 'allow' }] });
    try {
      await core.callTool('github__search', {});
      expect(calls).toEqual(['github/search']);
      expect(core.listTools(undefined, { profile: 'github-site' }).tools[0]?.policy).toBe('ask');
      const asked: unknown = await core
        .callTool('github__search', {}, { profile: 'github-site' })
        .catch((e: unknown) => e);
      expect(approvalOf(asked).exposedName).toBe('github__search');
      expect(calls).toEqual(['github/search']);
    } finally {
      await core.shutdown();
    }
  });

  it('lets a profile allow a tool nobody asks about, but never over a deny or ask rule', async () => {
    const { core, calls } = await host();
    try {
      expect(core.listTools(undefined, { profile: 'notes-site' }).tools[0]?.policy).toBe('allow');
      expect(core.listTools('notes').tools.find((t) => t.name === 'notes__read')?.policy).toBe(
        'ask',
      );
      await core.callTool('notes__read', {}, { profile: 'notes-site' });
      expect(calls).toEqual(['notes/read']);
    } finally {
      await core.shutdown();
    }
    for (const value of ['deny', 'ask'] as const) {
      const strict = await host({ toolPolicy: [{ glob: 'notes__*', value }] });
      try {
        const listed = strict.core.listTools(undefined, {
          profile: 'notes-site',
          includeDenied: true,
        });
        expect(listed.tools[0]?.policy).toBe(value);
        const reason = await reasonOf(
          strict.core.callTool('notes__read', {}, { profile: 'notes-site' }),
        );
        expect(reason).toBe(value === 'deny' ? 'denied' : 'approval-required');
        expect(strict.calls).toEqual([]);
      } finally {
        await strict.core.shutdown();
      }
    }
  });

  it('does not take a changed definition as reviewed when a profile is saved unchanged', async () => {
    // notes-site allows notes__read by name; the server changed that tool since it was pinned, so
    // the allow is suspended. Saving the profile again (a rename in the options page, which sends
    // its policy back as it was) is no review of the change: the tool keeps asking.
    const { core, calls } = await host({ stalePins: ['read'] });
    try {
      const policyOf = () => core.listTools(undefined, { profile: 'notes-site' }).tools[0]?.policy;
      expect(policyOf()).toBe('suspended');
      await core.setProfile({ ...notesSite, name: 'My notes' });
      expect(policyOf()).toBe('suspended');
      expect(await reasonOf(core.callTool('notes__read', {}, { profile: 'notes-site' }))).toBe(
        'approval-required',
      );
      expect(calls).toEqual([]);
      // Writing the allow anew (it was not there before) is the user naming the tool: it pins.
      await core.setProfile({ ...notesSite, policy: {} });
      await core.setProfile(notesSite);
      expect(policyOf()).toBe('allow');
    } finally {
      await core.shutdown();
    }
  });

  it('reports the budget of the profile, with what to disable', async () => {
    const { core } = await host();
    try {
      const listing = core.listTools(undefined, { profile: 'notes-site' });
      const used = listing.tokens.total;
      expect(listing.budget).toEqual({
        limit: 1,
        used,
        headroom: 1 - used,
        over: true,
        suggestions: [{ kind: 'tool', server: 'notes', tool: 'notes__read', saves: used }],
      });
      expect(listing.tokens.byServer).toEqual({ notes: used });
      expect(core.listTools().budget).toBeUndefined();
    } finally {
      await core.shutdown();
    }
  });

  it('answers an unknown profile with unknown-profile, never with the default', async () => {
    const { core, calls } = await host();
    try {
      expect(() => core.listTools(undefined, { profile: 'gitlab' })).toThrow(
        expect.objectContaining({ reason: 'unknown-profile' }),
      );
      expect(await reasonOf(core.callTool('github__search', {}, { profile: 'gitlab' }))).toBe(
        'unknown-profile',
      );
      expect(calls).toEqual([]);
    } finally {
      await core.shutdown();
    }
  });

  it('offers roots from workspace folders and announces a change', async () => {
    const { core, roots } = await host();
    try {
      await until(() => (roots.get('notes')?.length ?? 0) > 0);
      expect(roots.get('notes')).toEqual([['file:///home/alex/notes']]);
      await until(() => (roots.get('github')?.length ?? 0) > 0);
      expect(roots.get('github')).toEqual([[]]);

      const moved: Profile = { ...notesSite, workspace: '/home/alex/notes-2' };
      await core.setProfile(moved);
      await until(() => (roots.get('notes')?.length ?? 0) > 1);
      expect(roots.get('notes')?.[1]).toEqual(['file:///home/alex/notes-2']);
      // github's roots did not change: it was not told.
      expect(roots.get('github')).toHaveLength(1);

      expect(await core.removeProfile('notes-site')).toBe(true);
      await until(() => (roots.get('notes')?.length ?? 0) > 2);
      expect(roots.get('notes')?.[2]).toEqual([]);
      expect(names(core)).toContain('notes__write');
    } finally {
      await core.shutdown();
    }
  });

  it('refuses a profile past the limit instead of writing one that would load locked', async () => {
    const many = Array.from({ length: 64 }, (_, i) => ({ ...githubSite, id: `p${i}` }));
    const { core } = await host({ profiles: many });
    try {
      expect(await reasonOf(core.setProfile({ ...githubSite, id: 'one-more' }))).toBe(
        'invalid-params',
      );
      // Replacing one of them is fine.
      expect((await core.setProfile({ ...githubSite, id: 'p3', mode: 'full' })).profile.mode).toBe(
        'full',
      );
    } finally {
      await core.shutdown();
    }
  });

  it('puts a profile written with profiles/set in force at once', async () => {
    const { core } = await host({ profiles: [] });
    try {
      expect(core.resolveProfile('https://github.com/x').profile.id).toBe('default');
      const { profile, warnings } = await core.setProfile({
        ...githubSite,
        servers: ['github', 'gitlab'],
      });
      expect(profile.id).toBe('github-site');
      expect(warnings).toEqual([
        "No server named 'gitlab' is configured; the profile enables it once it is.",
      ]);
      expect(core.resolveProfile('https://github.com/x')).toEqual({
        profile,
        matchedPattern: 'https://github.com/*',
      });
      expect(names(core, 'github-site')).toEqual(['github__search']);
    } finally {
      await core.shutdown();
    }
  });
});

async function until(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
