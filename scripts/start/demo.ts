import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { Profile } from '../../protocol/profiles';
import { configPath } from '../../native-host/config/paths';
import { writeProfile } from '../../native-host/profiles/write';

/**
 * The demo `npm start` sets up, all under `.tmp/` of the clone (git-ignored): a Switchyard home
 * (`.tmp/demo-home`, the SWITCHYARD_HOME of everything npm start runs), a folder of sample files
 * (`.tmp/demo-files`), the reference filesystem server on that folder and the memory server,
 * added with `switchyard add` (which approves exactly what they run, as the popup does), and a
 * "Demo" profile. Paths and contents are pure functions; prepareDemo does the writing.
 */

export interface StartLayout {
  readonly root: string;
  /** The built host: dist/host/switchyard.cjs. */
  readonly bundle: string;
  /** SWITCHYARD_HOME of the demo. */
  readonly home: string;
  /** The folder the filesystem server may touch, and the Demo profile's workspace. */
  readonly files: string;
  readonly welcomeFile: string;
  /** The dedicated browser profile (`--user-data-dir`). */
  readonly userDataDir: string;
  /** The built Chromium extension. */
  readonly extensionSource: string;
  /** The copy the browser loads (see snapshotExtension in start.ts). */
  readonly extensionDir: string;
  readonly firefoxExtension: string;
  /** The launched browser's stdout and stderr. */
  readonly browserLog: string;
}

export function startLayout(root: string): StartLayout {
  const tmp = path.join(root, '.tmp');
  const files = path.join(tmp, 'demo-files');
  return {
    root,
    bundle: path.join(root, 'dist', 'host', 'switchyard.cjs'),
    home: path.join(tmp, 'demo-home'),
    files,
    welcomeFile: path.join(files, 'welcome.md'),
    userDataDir: path.join(tmp, 'browser-profile'),
    extensionSource: path.join(root, 'dist', 'chrome-mv3'),
    extensionDir: path.join(tmp, 'extension'),
    firefoxExtension: path.join(root, 'dist', 'firefox-mv3'),
    browserLog: path.join(tmp, 'browser.log'),
  };
}

export const DEMO_PROFILE_ID = 'demo';

/** The entry scripts of the two reference servers, run as `node <entry>` (no npx: no network). */
export interface DemoServerEntries {
  readonly filesystem: string;
  readonly memory: string;
}

/** `switchyard add` arguments for the demo servers; `--replace` makes a second run a no-op. */
export function demoServerArgs(
  layout: StartLayout,
  node: string,
  entries: DemoServerEntries,
): ReadonlyArray<{ readonly name: string; readonly args: readonly string[] }> {
  return [
    {
      name: 'files',
      args: ['add', 'files', '--replace', '--', node, entries.filesystem, layout.files],
    },
    {
      name: 'memory',
      args: [
        'add',
        'memory',
        '--replace',
        '--env',
        `MEMORY_FILE_PATH=${path.join(layout.home, 'memory.jsonl')}`,
        '--',
        node,
        entries.memory,
      ],
    },
  ];
}

/**
 * The Demo profile. The default profile already offers every tool of every server, and every
 * call asks; this one shows what a profile adds, on the demo folder's own pages (open
 * welcome.md in the browser and the side panel switches to it):
 * - `workspace`: the demo folder is offered to its servers as their MCP root, so the filesystem
 *   server's allowed folder comes from the profile (roots replace its command-line folders);
 * - `mode: standard`: tools that declare `destructiveHint` (write, edit, move, delete) are hidden;
 * - `policy`: reading the folder and the memory graph runs without a prompt; everything else
 *   (saving to memory, creating a folder) still asks, bound to the arguments shown;
 * - `tokenBudget`: the context meter shows the listing's cost against it.
 */
export function demoProfile(layout: StartLayout): Profile {
  return {
    id: DEMO_PROFILE_ID,
    name: 'Demo',
    match: [`${pathToFileURL(layout.files).href}/*`],
    servers: ['files', 'memory'],
    mode: 'standard',
    policy: {
      'files__read_*': 'allow',
      'files__list_*': 'allow',
      files__directory_tree: 'allow',
      files__search_files: 'allow',
      files__get_file_info: 'allow',
      memory__read_graph: 'allow',
      memory__search_nodes: 'allow',
      memory__open_nodes: 'allow',
    },
    workspace: layout.files,
    tokenBudget: 4_000,
  };
}

/** The sample files, by name in the demo folder. Written only when absent: edits are kept. */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  'welcome.md': `# Welcome to the Switchyard demo

This folder is the demo's workspace. The agent in the side panel reaches it through the reference
filesystem server, which sees this folder and nothing else, and keeps notes with the memory server.

With this page open, the side panel uses the **Demo** profile:

- reading and listing the files here runs at once (the profile allows it);
- saving to memory or creating a folder asks you first, showing the exact arguments;
- tools that overwrite, move or delete are hidden (the profile's mode is \`standard\`).

On any other page the default profile applies: every tool is offered, and every call asks.

Things to ask:

- "What is in the demo folder?"
- "Read project-notes.md and remember the open decisions."
- "What do you remember about the project?"
`,
  'project-notes.md': `# Project notes: the Lighthouse newsletter

## Decided
- Send on the first Tuesday of each month, 9:00 local time.
- Plain-text version alongside the HTML one.

## Open
- Which mailing service: Buttondown or a self-hosted listmonk? (Ana to compare prices by Friday.)
- Do we keep the "reader letters" section? Only two letters last month.

## People
- Ana: editor, owns the schedule.
- Tomás: writes the feature article.
`,
};

/** The entry script a package's `bin` names (one bin), as `node` runs it. */
export function packageBinEntry(packageDir: string, packageJson: unknown): string {
  const parsed = z
    .object({ bin: z.union([z.string(), z.record(z.string(), z.string())]) })
    .safeParse(packageJson);
  const bin = parsed.success ? parsed.data.bin : undefined;
  const relative = typeof bin === 'string' ? bin : Object.values(bin ?? {})[0];
  return path.join(packageDir, relative ?? path.join('dist', 'index.js'));
}

function serverEntry(root: string, name: string): string {
  const dir = path.join(root, 'node_modules', '@modelcontextprotocol', name);
  const packageFile = path.join(dir, 'package.json');
  if (!existsSync(packageFile)) {
    throw new Error(`${packageFile} is missing: run \`npm install\` first.`);
  }
  return packageBinEntry(dir, JSON.parse(readFileSync(packageFile, 'utf8')));
}

/** Runs the built `switchyard` CLI with the demo home; returns its stdout, throws with stderr. */
export function runSwitchyard(layout: StartLayout, args: readonly string[]): string {
  try {
    return execFileSync(process.execPath, [layout.bundle, ...args], {
      env: { ...process.env, SWITCHYARD_HOME: layout.home },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // With --json, a failure is reported on stdout; otherwise on stderr.
    const output = z.object({ stdout: z.string(), stderr: z.string() }).safeParse(error);
    const detail = output.success
      ? output.data.stderr.trim() || output.data.stdout.trim()
      : String(error);
    throw new Error(`'switchyard ${args[0] ?? ''}' failed:\n${detail}`, { cause: error });
  }
}

/** The installed reference servers' entry scripts; throws when `npm install` has not run. */
export function demoServerEntries(root: string): DemoServerEntries {
  return {
    filesystem: serverEntry(root, 'server-filesystem'),
    memory: serverEntry(root, 'server-memory'),
  };
}

export interface PreparedDemo {
  readonly servers: readonly string[];
  readonly samples: readonly string[];
}

/** Writes the demo: folders, sample files (if absent), the two servers, the Demo profile. */
export async function prepareDemo(layout: StartLayout): Promise<PreparedDemo> {
  if (!existsSync(layout.bundle)) {
    throw new Error(`${layout.bundle} is missing: run \`npm run build\` first.`);
  }
  mkdirSync(layout.home, { recursive: true, mode: 0o700 });
  mkdirSync(layout.files, { recursive: true });
  for (const [name, text] of Object.entries(DEMO_FILES)) {
    const file = path.join(layout.files, name);
    if (!existsSync(file)) writeFileSync(file, text);
  }
  const entries = demoServerEntries(layout.root);
  const servers: string[] = [];
  for (const server of demoServerArgs(layout, process.execPath, entries)) {
    runSwitchyard(layout, server.args);
    servers.push(server.name);
  }
  await writeProfile(configPath(layout.home), demoProfile(layout));
  return { servers, samples: Object.keys(DEMO_FILES) };
}
