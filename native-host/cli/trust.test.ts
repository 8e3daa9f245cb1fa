import path from 'node:path';
import { expect, test } from 'vitest';
import { revokeTarget } from './trust';

const CWD = path.resolve('/src/repo');

// `switchyard revoke fs` used to be refused as a usage error: the server name at index 0 was
// taken for the value of a `--workspace` that was not there (index -1 + 1).
test.each<[string, readonly string[], ReturnType<typeof revokeTarget>]>([
  ['one server', ['fs'], { server: 'fs' }],
  ['a workspace', ['--workspace', CWD], { workspace: CWD }],
  ['nothing', [], undefined],
  ['two servers', ['fs', 'memory'], undefined],
  ['a server and a workspace', ['fs', '--workspace', '/src/repo'], undefined],
  ['a workspace without its folder', ['--workspace'], undefined],
  ['a workspace followed by a flag', ['--workspace', '--yes'], undefined],
  // A relative folder ended in a TypeError's stack trace (the trust store takes absolute scopes
  // only), and a trailing separator (a shell's completion adds one) matched no workspace root:
  // "No configured server was affected", exit 0, the approval kept.
  ['a workspace here', ['--workspace', '.'], { workspace: CWD }],
  ['a relative workspace', ['--workspace', '../other'], { workspace: path.resolve('/src/other') }],
  [
    'a workspace with a trailing separator',
    ['--workspace', `${CWD}${path.sep}`],
    { workspace: CWD },
  ],
])('revokeTarget: %s', (_, args, target) => {
  expect(revokeTarget(args, CWD)).toEqual(target);
});
