/**
 * Tool search mode (issue 15, docs/decisions/0027): when a profile's tools exceed its token
 * budget, the model is offered `search_tools` and the pinned tools instead of every tool, and finds
 * the rest by query. This is the meta-tool's definition and the ranking it runs: BM25 over the
 * tokenized fields of each tool, weighted by field (a word in the name says more than one in a
 * long description). Pure and local: no network, no model, the same answer for the same listing.
 *
 * Error direction: a poor ranking costs the model a second query; nothing here decides what may
 * run (the host's policy and approvals do, for a found tool exactly as for a listed one).
 */

/** The meta-tool's name. The host reserves it, like the built-in tools' names (design D4). */
export const SEARCH_TOOLS_NAME = 'search_tools';
export const DEFAULT_SEARCH_RESULTS = 5;
export const MAX_SEARCH_RESULTS = 10;
/** Longest query ranked, in characters (longer ones are cut: no tool needs a page of words). */
export const MAX_QUERY_CHARS = 500;

/** What the model is offered in place of the tools it can find. */
export const SEARCH_TOOLS_DEFINITION = {
  name: SEARCH_TOOLS_NAME,
  description:
    'Find more tools. Only some tools are listed; the rest are found by searching their names and descriptions. Returns the best matches with their input schemas; call one by its exact name.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What the tool should do, e.g. "create issue"' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS },
    },
    required: ['query'],
  },
} as const;

/** The parts of a listed tool the ranking reads. */
export interface SearchableTool {
  /** The exposed name (`server__tool`). */
  readonly name: string;
  readonly server: string;
  /** The server's own name for the tool. */
  readonly tool: string;
  readonly title?: string | undefined;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** How much a term counts by where it occurs. */
const FIELD_WEIGHTS = { name: 3, title: 2, server: 2, params: 2, description: 1 } as const;
const K1 = 1.2;
const B = 0.75;

// Words that match nearly every description and rank nothing.
const STOP_WORDS = new Set(
  'a an and are as at be by for from in into is it of on or the this that to with you your'.split(
    ' ',
  ),
);

/**
 * The terms of a text: split at anything not a letter or digit and at camelCase humps,
 * lower-cased, stop words dropped, a plural `s` taken off (`files` finds `file`).
 */
export function tokenize(text: string): string[] {
  const spaced = text
    .slice(0, 20_000)
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase();
  const terms: string[] = [];
  for (const word of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (word === '' || STOP_WORDS.has(word)) continue;
    terms.push(
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
  }
  return terms;
}

/** The property names of a schema, one level of nesting deep (what a caller fills in). */
function parameterNames(schema: Readonly<Record<string, unknown>>): string {
  const names: string[] = [];
  const collect = (node: unknown, depth: number): void => {
    if (depth > 2 || typeof node !== 'object' || node === null) return;
    const properties = 'properties' in node ? node.properties : undefined;
    if (typeof properties !== 'object' || properties === null) return;
    for (const [key, value] of Object.entries(properties)) {
      names.push(key);
      collect(value, depth + 1);
    }
  };
  collect(schema, 0);
  return names.join(' ');
}

interface IndexedTool {
  readonly name: string;
  /** Weighted term frequencies. */
  readonly terms: ReadonlyMap<string, number>;
  /** Weighted length. */
  readonly length: number;
}

export interface ToolSearchIndex {
  readonly tools: readonly IndexedTool[];
  /** How many tools contain each term. */
  readonly documentFrequency: ReadonlyMap<string, number>;
  readonly averageLength: number;
}

export function buildSearchIndex(tools: readonly SearchableTool[]): ToolSearchIndex {
  const documentFrequency = new Map<string, number>();
  const indexed = tools.map((tool): IndexedTool => {
    const terms = new Map<string, number>();
    let length = 0;
    const add = (text: string, weight: number): void => {
      for (const term of tokenize(text)) {
        terms.set(term, (terms.get(term) ?? 0) + weight);
        length += weight;
      }
    };
    add(`${tool.name} ${tool.tool}`, FIELD_WEIGHTS.name);
    add(tool.title ?? '', FIELD_WEIGHTS.title);
    add(tool.server, FIELD_WEIGHTS.server);
    add(parameterNames(tool.inputSchema), FIELD_WEIGHTS.params);
    add(tool.description, FIELD_WEIGHTS.description);
    for (const term of terms.keys()) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
    return { name: tool.name, terms, length };
  });
  const total = indexed.reduce((sum, tool) => sum + tool.length, 0);
  return {
    tools: indexed,
    documentFrequency,
    averageLength: indexed.length === 0 ? 1 : Math.max(1, total / indexed.length),
  };
}

export interface SearchHit {
  readonly name: string;
  readonly score: number;
}

/**
 * The best `limit` tools for `query`, best first: BM25 over the weighted terms; a tool whose
 * exposed name the query spells out comes first. Tools that share no term with the query are not
 * hits. Ties go by name, so the answer is the same for the same listing.
 */
export function searchTools(
  index: ToolSearchIndex,
  query: string,
  limit: number = DEFAULT_SEARCH_RESULTS,
): SearchHit[] {
  const cut = query.slice(0, MAX_QUERY_CHARS);
  const terms = [...new Set(tokenize(cut))];
  const spelled = new Set(cut.split(/[^A-Za-z0-9_-]+/).filter((word) => word !== ''));
  const count = index.tools.length;
  const hits: SearchHit[] = [];
  for (const tool of index.tools) {
    let score = 0;
    for (const term of terms) {
      const tf = tool.terms.get(term);
      if (tf === undefined) continue;
      const df = index.documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      score +=
        (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * tool.length) / index.averageLength));
    }
    if (spelled.has(tool.name)) score += 1_000;
    if (score > 0) hits.push({ name: tool.name, score });
  }
  hits.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return hits.slice(0, Math.max(1, Math.min(MAX_SEARCH_RESULTS, Math.floor(limit))));
}

/** One found tool as the model reads it: what it needs to call the tool. */
export interface FoundTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/**
 * The text of a search's result: one JSON definition a line (the minified schemas the listing
 * holds), so the model can call each by name. Server-written text: the caller wraps it as
 * untrusted data (design D9).
 */
export function searchResultText(query: string, found: readonly FoundTool[], of: number): string {
  if (found.length === 0) {
    return `No tool matches "${query.slice(0, MAX_QUERY_CHARS)}" (searched ${of} tools). Try other words: what the tool does, or its server's name.`;
  }
  const lines = found.map((tool) =>
    JSON.stringify({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }),
  );
  return `${found.length} of ${of} tools match; call one by its exact name:\n${lines.join('\n')}`;
}
