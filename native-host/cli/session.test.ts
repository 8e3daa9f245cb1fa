import { describe, expect, test } from 'vitest';
import { cliHome } from '../testing/cli-home';
import { tools } from './tools';
import { trust } from './trust';

// A config.json rejected whole (here: cut off mid-object) loads no servers. `trust` used to say
// "Every configured server is approved." and `tools` "0 tools", both exit 0, without a word of
// the file's problem: the user had no way to tell their edit was ignored.
describe('a command run on a rejected config.json', () => {
  test.each([
    ['trust', trust],
    ['tools', tools],
  ] as const)('%s says why and exits 1', async (name, command) => {
    const { io, out, err } = cliHome('{"mcpServers": {');
    expect(await command(io, [])).toBe(1);
    expect(out.join('')).toBe('');
    const text = err.join('');
    expect(text).toMatch(new RegExp(`^switchyard ${name}: .*config\\.json:.*not valid JSON`));
    expect(text).toContain(`switchyard ${name}: nothing was done; fix that, then try again.\n`);
  });
});
