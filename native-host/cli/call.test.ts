import { expect, test } from 'vitest';
import { parseCallArgs } from './call';

// `switchyard call --help` used to look for a tool named '--help' (exit 1, "No tool is exposed as
// '--help'"), and a third word (a second JSON object, a stray argument) was dropped without a
// word: the tool ran with what came before it.
test.each<[readonly string[], ReturnType<typeof parseCallArgs>]>([
  [
    ['memory__read_graph'],
    { ok: true, tool: 'memory__read_graph', rawArgs: undefined, yes: false },
  ],
  [['t', '{"a": 1}', '--yes'], { ok: true, tool: 't', rawArgs: '{"a": 1}', yes: true }],
  [['--yes', 't', '{}'], { ok: true, tool: 't', rawArgs: '{}', yes: true }],
  [[], { ok: false, error: 'name the tool, e.g. memory__read_graph' }],
  [['--yes'], { ok: false, error: 'name the tool, e.g. memory__read_graph' }],
  [['--help'], { ok: false, error: "unknown argument '--help'" }],
  [['t', '{}', '--json'], { ok: false, error: "unknown argument '--json'" }],
  [
    ['t', '{"a":', '1}'],
    {
      ok: false,
      error: "unexpected '1}': give the arguments as one JSON object in single quotes",
    },
  ],
])('parseCallArgs %j', (argv, expected) => {
  expect(parseCallArgs(argv)).toEqual(expected);
});
