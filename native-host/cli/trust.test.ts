import { expect, test } from 'vitest';
import { revokeTarget } from './trust';

// `switchyard revoke fs` used to be refused as a usage error: the server name at index 0 was
// taken for the value of a `--workspace` that was not there (index -1 + 1).
test.each<[string, readonly string[], ReturnType<typeof revokeTarget>]>([
  ['one server', ['fs'], { server: 'fs' }],
  ['a workspace', ['--workspace', '/src/repo'], { workspace: '/src/repo' }],
  ['nothing', [], undefined],
  ['two servers', ['fs', 'memory'], undefined],
  ['a server and a workspace', ['fs', '--workspace', '/src/repo'], undefined],
  ['a workspace without its folder', ['--workspace'], undefined],
  ['a workspace followed by a flag', ['--workspace', '--yes'], undefined],
])('revokeTarget: %s', (_, args, target) => {
  expect(revokeTarget(args)).toEqual(target);
});
