// `npm run package`: the release artifacts, from an existing build (`npm run build` runs first).
//
//   dist/packages/switchyard-<version>-chrome.zip    Chrome Web Store upload (dist/chrome-mv3)
//   dist/packages/switchyard-<version>-firefox.zip   addons.mozilla.org upload (dist/firefox-mv3)
//   dist/packages/switchyard-<version>-sources.zip   the sources AMO asks for with bundled code,
//                                                    with SOURCES.md: how a reviewer rebuilds
//                                                    the add-on from them, and what the linter says
//   dist/packages/switchyard-<version>.tgz           the host + installer as an npm package:
//                                                    `npx switchyard install`, or unpack it and
//                                                    run `node package/dist/host/switchyard.cjs install`
//
// Store-ready: the Chrome zip's manifest drops `key` (it pins the development id, and the Chrome
// Web Store refuses a manifest with a `key`); the Firefox manifest keeps its gecko id. The npm
// package is staged with a package.json of its own: the host is one self-contained bundle, so
// the package has no dependencies and no install scripts (the repository's `postinstall` runs
// WXT, a dev dependency a user does not have).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const out = path.join(dist, 'packages');
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const { version } = pkg;

function fail(message) {
  process.stderr.write(`package: ${message}\n`);
  process.exit(1);
}

for (const required of [
  'chrome-mv3/manifest.json',
  'firefox-mv3/manifest.json',
  'host/switchyard.cjs',
  'host/switchyard-main.cjs',
]) {
  if (!existsSync(path.join(dist, required))) {
    fail(`dist/${required} is missing: run 'npm run build' first (npm run package does).`);
  }
}

/** Every regular file under `dir`, as [zip path with '/', absolute path], sorted. */
async function filesUnder(dir, prefix = '') {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await filesUnder(full, name)));
    else if (entry.isFile()) files.push([name, full]);
  }
  return files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

// A deterministic zip (deflate, UTF-8 names, fixed timestamps, sorted entries): the same build
// gives the same bytes, so a release can be checked against a rebuild.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01

function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data, mode } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const compressed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, nameBytes, compressed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, so the mode below counts
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(((0o100000 | mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + compressed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

async function zipFolder(folder, transform = (_name, data) => data) {
  const entries = [];
  for (const [name, full] of await filesUnder(folder)) {
    const data = transform(name, await readFile(full));
    if (data !== null) entries.push({ name, data, mode: 0o644 });
  }
  return zip(entries);
}

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const written = [];

// Chrome: the store assigns the id; the development `key` must go.
const chromeZip = path.join(out, `switchyard-${version}-chrome.zip`);
await writeFile(
  chromeZip,
  await zipFolder(path.join(dist, 'chrome-mv3'), (name, data) => {
    if (name !== 'manifest.json') return data;
    const manifest = JSON.parse(data.toString('utf8'));
    if (manifest.version !== version) {
      fail(`dist/chrome-mv3 is version ${manifest.version}, package.json ${version}: rebuild.`);
    }
    delete manifest.key;
    return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  }),
);
written.push(chromeZip);

// Firefox: the gecko id in browser_specific_settings is the id the host manifest allows.
const firefoxZip = path.join(out, `switchyard-${version}-firefox.zip`);
await writeFile(
  firefoxZip,
  await zipFolder(path.join(dist, 'firefox-mv3'), (name, data) => {
    if (name !== 'manifest.json') return data;
    const manifest = JSON.parse(data.toString('utf8'));
    if (typeof manifest.browser_specific_settings?.gecko?.id !== 'string') {
      fail('dist/firefox-mv3/manifest.json has no gecko id: check wxt.config.ts.');
    }
    return data;
  }),
);
written.push(firefoxZip);

// Sources for AMO review: what git tracks (the build is reproducible from it).
try {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((name) => name !== '' && existsSync(path.join(root, name)))
    .sort();
  if (!tracked.includes('SOURCES.md')) {
    fail('SOURCES.md (the build instructions AMO reviewers follow) is not tracked by git.');
  }
  const entries = [];
  for (const name of tracked) {
    const full = path.join(root, name);
    if (!(await stat(full)).isFile()) continue;
    entries.push({ name, data: await readFile(full), mode: 0o644 });
  }
  const sourcesZip = path.join(out, `switchyard-${version}-sources.zip`);
  await writeFile(sourcesZip, zip(entries));
  written.push(sourcesZip);
} catch {
  process.stderr.write('package: not a git checkout; skipped the sources zip.\n');
}

// The npm package: the bundle, its source map, the README, and a package.json with no
// dependencies and no scripts.
const stage = path.join(dist, 'npm-package');
await rm(stage, { recursive: true, force: true });
await mkdir(path.join(stage, 'dist', 'host'), { recursive: true });
for (const file of await readdir(path.join(dist, 'host'))) {
  // The entry, the main bundle and its map; not the code cache a run of the host left there.
  if (/^switchyard(-main)?\.cjs(\.map)?$/.test(file)) {
    await cp(path.join(dist, 'host', file), path.join(stage, 'dist', 'host', file));
  }
}
for (const file of ['README.md', 'LICENSE']) {
  if (existsSync(path.join(root, file))) await cp(path.join(root, file), path.join(stage, file));
}
const published = {
  name: pkg.name,
  version,
  description: pkg.description,
  license: pkg.license,
  engines: pkg.engines,
  bin: { switchyard: 'dist/host/switchyard.cjs' },
  files: ['dist/host'],
  ...(pkg.repository === undefined ? {} : { repository: pkg.repository }),
  ...(pkg.homepage === undefined ? {} : { homepage: pkg.homepage }),
};
await writeFile(path.join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
const packed = execFileSync(
  'npm',
  ['pack', stage, '--pack-destination', out, '--json', '--ignore-scripts'],
  { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const [{ filename }] = JSON.parse(packed);
written.push(path.join(out, filename));
await rm(stage, { recursive: true, force: true });

for (const file of written) {
  const { size } = await stat(file);
  process.stdout.write(`${path.relative(root, file)}  ${(size / 1024).toFixed(1)} KiB\n`);
}
