import { describe, expect, test } from 'vitest';
import { importsOf, sourceFiles } from './source-files';

// A cycle between two files means neither can be understood, tested or moved without the other:
// the layers in docs/architecture.md only hold if the file graph is acyclic. Type-only imports
// count too; they are still a dependency a reader has to follow.

/** Strongly connected components of more than one file, or of a file that imports itself. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next);
    next += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge]!;
        frame.edge += 1;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next);
          next += 1;
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && edges.includes(frame.node);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found;
}

describe('cycles()', () => {
  test.each([
    ['no edges', { a: [], b: [] }, []],
    ['a chain', { a: ['b'], b: ['c'], c: [] }, []],
    ['a diamond', { a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }, []],
    ['two files', { a: ['b'], b: ['a'] }, [['a', 'b']]],
    ['three files', { a: ['b'], b: ['c'], c: ['a'], d: ['a'] }, [['a', 'b', 'c']]],
    ['a self-import', { a: ['a'] }, [['a']]],
    [
      'two separate cycles',
      { a: ['b'], b: ['a'], c: ['d'], d: ['c'] },
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
  ])('%s', (_name, edges, expected) => {
    const graph = new Map(Object.entries(edges));
    expect(cycles(graph).sort((x, y) => (x[0] ?? '').localeCompare(y[0] ?? ''))).toEqual(expected);
  });
});

describe('the import graph of the shipped code', () => {
  const files = sourceFiles();
  const known = new Set(files);
  const exists = (rel: string): boolean => known.has(rel);
  const graph = new Map(files.map((file) => [file, importsOf(file, exists)]));

  test('is read from a realistic number of files and edges', () => {
    // A broken walk or resolver would find no cycle because it found no imports.
    expect(files.length).toBeGreaterThan(200);
    const edges = [...graph.values()].reduce((sum, list) => sum + list.length, 0);
    expect(edges).toBeGreaterThan(500);
    expect(graph.get('native-host/host/core.ts')).toContain('native-host/host/core-parts.ts');
  });

  test('has no cycle between files', () => {
    const found = cycles(graph).map((component) => component.join(' <-> '));
    expect(found, 'break each cycle by moving the shared part into a lower module').toEqual([]);
  });
});
