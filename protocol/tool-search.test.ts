import { describe, expect, test } from 'vitest';
import {
  MAX_SEARCH_RESULTS,
  buildSearchIndex,
  searchResultText,
  searchTools,
  tokenize,
  type SearchableTool,
} from './tool-search';

// A poor ranking costs the model another query; it never lets anything run (the host decides
// each call). The dangerous direction here is a tool that exists and cannot be found by the
// words its name or description uses: then the model cannot reach it at all in search mode.

const tool = (
  server: string,
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
): SearchableTool => ({
  name: `${server}__${name}`,
  server,
  tool: name,
  description,
  inputSchema: { type: 'object', properties },
});

const TOOLS: SearchableTool[] = [
  tool('filesystem', 'read_text_file', 'Read the complete contents of a file as text.', {
    path: { type: 'string' },
  }),
  tool('filesystem', 'write_file', 'Create a new file or overwrite an existing file.', {
    path: { type: 'string' },
    content: { type: 'string' },
  }),
  tool('filesystem', 'list_directory', 'List the files and directories in a folder.', {
    path: { type: 'string' },
  }),
  tool('memory', 'create_entities', 'Create multiple new entities in the knowledge graph.', {
    entities: { type: 'array' },
  }),
  tool('memory', 'search_nodes', 'Search for nodes in the knowledge graph by a query.', {
    query: { type: 'string' },
  }),
  tool('github', 'createIssue', 'Open a new issue in a repository.', {
    owner: { type: 'string' },
    repo: { type: 'string' },
    title: { type: 'string' },
  }),
  tool('github', 'list_pull_requests', 'List pull requests of a repository.', {
    repo: { type: 'string' },
  }),
  tool('everything', 'echo', 'Echoes back the input.', { message: { type: 'string' } }),
];
const index = buildSearchIndex(TOOLS);

describe('tokenize', () => {
  test.each([
    ['read_text_file', ['read', 'text', 'file']],
    ['createIssue', ['create', 'issue']],
    ['github__list_pull_requests', ['github', 'list', 'pull', 'request']],
    ['HTTPServer status', ['http', 'server', 'statu']],
    ['Read the files of a folder', ['read', 'file', 'folder']],
    ['class access', ['class', 'access']],
    ['', []],
  ])('%j -> %j', (text, terms) => {
    expect(tokenize(text)).toEqual(terms);
  });
});

describe('searchTools: the tool a query means ranks first', () => {
  test.each([
    ['read a file', 'filesystem__read_text_file'],
    ['write file contents', 'filesystem__write_file'],
    ['list folder', 'filesystem__list_directory'],
    ['knowledge graph entities', 'memory__create_entities'],
    ['open an issue', 'github__createIssue'],
    ['create issue', 'github__createIssue'],
    ['pull requests', 'github__list_pull_requests'],
    ['echo', 'everything__echo'],
    // A parameter name is searched too.
    ['owner repo title', 'github__createIssue'],
    // The exact exposed name wins over any word overlap.
    ['memory__search_nodes', 'memory__search_nodes'],
  ])('%j -> %s', (query, best) => {
    expect(searchTools(index, query)[0]?.name).toBe(best);
  });
});

describe('searchTools: limits and misses', () => {
  test("a server's name finds its tools", () => {
    expect(
      searchTools(index, 'memory')
        .map((h) => h.name)
        .sort(),
    ).toEqual(['memory__create_entities', 'memory__search_nodes']);
  });

  test('no shared term: no hits', () => {
    expect(searchTools(index, 'weather forecast')).toEqual([]);
    expect(searchTools(index, 'the of and')).toEqual([]);
    expect(searchTools(index, '')).toEqual([]);
  });

  test('limit is honoured and bounded', () => {
    expect(searchTools(index, 'file', 2)).toHaveLength(2);
    expect(searchTools(index, 'file', 0)).toHaveLength(1);
    const many = buildSearchIndex(
      Array.from({ length: 50 }, (_, i) => tool('s', `file_${i}`, 'A file tool.')),
    );
    expect(searchTools(many, 'file', 1_000)).toHaveLength(MAX_SEARCH_RESULTS);
  });

  test('ties go by name, so the order is stable', () => {
    const twins = buildSearchIndex([tool('b', 'same', 'Same.'), tool('a', 'same', 'Same.')]);
    expect(searchTools(twins, 'same').map((h) => h.name)).toEqual(['a__same', 'b__same']);
  });

  test('an empty index finds nothing', () => {
    expect(searchTools(buildSearchIndex([]), 'file')).toEqual([]);
  });
});

describe('searchResultText', () => {
  test('one callable definition a line', () => {
    const text = searchResultText('echo', [TOOLS[7]!], 8);
    const [head, line] = text.split('\n');
    expect(head).toBe('1 of 8 tools match; call one by its exact name:');
    expect(JSON.parse(line!)).toEqual({
      name: 'everything__echo',
      description: 'Echoes back the input.',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    });
  });

  test('no match says what to try', () => {
    expect(searchResultText('weather', [], 8)).toBe(
      'No tool matches "weather" (searched 8 tools). Try other words: what the tool does, or its server\'s name.',
    );
  });
});
