import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, test } from 'vitest';
import extensionLayers from '../../eslint/extension-layers.js';
import { HOST_LAYERS, hostLayers } from '../../eslint/host-layers.js';
import { ROOT, sourceFiles } from './source-files';

// The layering is only real if a wrong import fails the build with a message that says where
// the import belongs: these tests lint probe files against the project's own layer rules.

const linter = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    { languageOptions: { parser: tseslint.parser } },
    ...hostLayers,
    ...extensionLayers,
  ],
});

async function restrictedMessages(file: string, source: string): Promise<string[]> {
  const [result] = await linter.lintText(source, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

const ranked = HOST_LAYERS.flatMap((layer, rank) =>
  layer.folders.map((folder) => ({ folder, rank })),
);

describe('host layers', () => {
  test('every folder of native-host/ has a layer (or holds test helpers)', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'native-host'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'testing')
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(ranked.map((r) => r.folder).sort());
  });

  // Dangerous direction: a wrong import that lints clean. Each folder is probed with an import
  // of every folder at or above its own layer, and of the one just below it (which must pass).
  test.each(ranked)(
    'native-host/$folder/ may not import its layer or above',
    async ({ folder, rank }) => {
      for (const other of ranked) {
        if (other.folder === folder) continue;
        const messages = await restrictedMessages(
          `native-host/${folder}/probe.ts`,
          `import { x } from '../${other.folder}/thing';\nexport const y = x;\n`,
        );
        if (other.rank < rank) {
          expect(messages, `${folder} -> ${other.folder}`).toEqual([]);
        } else {
          expect(messages, `${folder} -> ${other.folder}`).toHaveLength(1);
          expect(messages[0]).toContain(`native-host/${folder}/ is layer ${rank}`);
          expect(messages[0]).toContain(`native-host/${other.folder}/`);
        }
      }
    },
  );

  test('an import from a nested folder is judged by the folder it reaches', async () => {
    const messages = await restrictedMessages(
      'native-host/import/clients/probe.ts',
      "import { x } from '../../rpc/dispatcher';\nimport { y } from '../../config/load';\nexport const z = [x, y];\n",
    );
    expect(messages).toHaveLength(1);
    const rpc = HOST_LAYERS.findIndex((layer) => layer.folders.includes('rpc'));
    expect(messages[0]).toContain(`native-host/rpc/ is layer ${rpc}`);
  });

  test('no shipped code imports the test helpers', async () => {
    const messages = await restrictedMessages(
      'native-host/host/probe.ts',
      "import { x } from '../testing/in-memory-launcher';\nexport const y = x;\n",
    );
    expect(messages).toEqual([expect.stringContaining('only *.test.ts files and test/')]);
  });

  test('installers/ may import native-host/shared/ and protocol/ only', async () => {
    const ok = await restrictedMessages(
      'installers/probe.ts',
      "import { a } from '../native-host/shared/node-flags';\nimport { b } from '../protocol/identity';\nexport const c = [a, b];\n",
    );
    expect(ok).toEqual([]);
    const wrong = await restrictedMessages(
      'installers/probe.ts',
      "import { a } from '../native-host/config/load';\nexport const c = a;\n",
    );
    expect(wrong).toEqual([expect.stringContaining('installers/ is a library the CLI uses')]);
  });
});

describe('extension layers: ui/ -> messaging/ <- background/', () => {
  test.each([
    [
      'extension/ui/popup/probe.ts',
      '../../background/host-client',
      'ui/ never imports background/',
    ],
    ['extension/ui/popup/probe.ts', '../../messaging/conversation', null],
    ['extension/messaging/probe.ts', '../background/host-client', 'messaging/ is the vocabulary'],
    ['extension/messaging/probe.ts', '../ui/common/format', 'messaging/ is the vocabulary'],
    ['extension/background/probe.ts', '../ui/common/format', 'background/'],
    ['extension/background/probe.ts', '../messaging/conversation', null],
    ['extension/ui/popup/probe.ts', '../../../native-host/host/core', 'Talk to the host'],
  ])('%s importing %s', async (file, target, message) => {
    const messages = await restrictedMessages(
      file,
      `import { x } from '${target}';\nexport const y = x;\n`,
    );
    if (message === null) expect(messages).toEqual([]);
    else expect(messages).toEqual([expect.stringContaining(message)]);
  });
});

describe('module size', () => {
  // Logic modules rarely pass ~300 lines (docs/architecture.md); 400 is the hard stop.
  const MAX_LINES = 400;
  test.each(sourceFiles(['native-host', 'extension', 'installers', 'protocol']))(
    '%s is at most 400 lines',
    (file) => {
      const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length;
      expect(lines, `split ${file} by reason to change`).toBeLessThanOrEqual(MAX_LINES);
    },
  );
});
