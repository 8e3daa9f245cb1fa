// Writes the Windows shim fixtures of native-host/supervisor/fixtures/npm-shims/ (decision 0014)
// with the real packages, so the tests read what npm writes and not what we think it writes.
//
//   node scripts/npm-shim-fixtures.mjs cmd-shim <cmd-shim package folder> <out folder>
//     runs that cmd-shim on one package bin per shape (below) and keeps the .cmd files it writes
//     (its sh and .ps1 shims are not used: Switchyard runs neither sh nor PowerShell);
//   node scripts/npm-shim-fixtures.mjs npm <npm package folder> <out folder>
//     copies npm's own bin/npx.cmd and bin/npm.cmd.
//
// Get a package folder with `npm pack cmd-shim@8.0.0 && tar xzf cmd-shim-8.0.0.tgz` (cmd-shim 3.x
// also needs its dependencies: `npm install --omit=dev` in the folder), or use the copy inside an
// installed npm (`$(npm root -g)/npm/node_modules/cmd-shim`).
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Shim name -> [package-relative bin path, file content]: one row per shape the tests need. */
const BINS = {
  'mcp-server-filesystem': [
    '@modelcontextprotocol/server-filesystem/dist/index.js',
    '#!/usr/bin/env node\nconsole.log("server")\n',
  ],
  'node-flags': ['node-flags/cli.js', '#!/usr/bin/env node --no-warnings --enable-source-maps\n'],
  'env-vars': ['env-vars/cli.js', '#!/usr/bin/env -S NODE_ENV=production node\n'],
  'no-shebang': ['no-shebang/cli.js', 'console.log("no #! line")\n'],
  'native-tool': ['native-tool/bin/native-tool.exe', 'MZ'],
  'py-tool': ['py-tool/tool.py', '#!/usr/bin/env python3\nprint("python")\n'],
  'sh-tool': ['sh-tool/tool.sh', '#!/bin/sh\necho sh\n'],
  'abs-node': ['abs-node/cli.js', '#!/usr/local/bin/node\n'],
};

const [kind, source, out] = process.argv.slice(2);
if ((kind !== 'cmd-shim' && kind !== 'npm') || source === undefined || out === undefined) {
  process.stderr.write('usage: npm-shim-fixtures.mjs cmd-shim|npm <package folder> <out folder>\n');
  process.exit(2);
}
const { version } = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8'));
const target = path.join(out, `${kind}-${version}`);
await mkdir(target, { recursive: true });

if (kind === 'npm') {
  for (const name of ['npx.cmd', 'npm.cmd']) {
    await copyFile(path.join(source, 'bin', name), path.join(target, name));
  }
} else {
  const cmdShim = createRequire(import.meta.url)(path.resolve(source));
  // A global install: the shims sit in the prefix, the packages in <prefix>/node_modules.
  const prefix = await mkdtemp(path.join(tmpdir(), 'npm-shim-fixtures-'));
  try {
    for (const [name, [bin, content]] of Object.entries(BINS)) {
      const from = path.join(prefix, 'node_modules', bin);
      await mkdir(path.dirname(from), { recursive: true });
      await writeFile(from, content);
      // cmd-shim 3.x takes a callback; 4.x and later return a promise.
      await new Promise((resolve, reject) => {
        const done = (error) => (error ? reject(error) : resolve(undefined));
        const result = cmdShim(from, path.join(prefix, name), done);
        if (result !== undefined && typeof result.then === 'function') result.then(resolve, reject);
      });
      await copyFile(path.join(prefix, `${name}.cmd`), path.join(target, `${name}.cmd`));
    }
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
}
process.stdout.write(`wrote ${target}\n`);
