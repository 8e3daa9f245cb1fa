import type { AppReadResult } from '../../../protocol/apps';
import { sanitizeText } from '../../../protocol/untrusted/sanitize';
import type { ParamsOf, ResultOf } from '../../../protocol/methods';
import type { ExposedTool } from '../../../protocol/tools';

/**
 * The side panel's pure half of an MCP App (issue 12 part 4): reading the page part by part,
 * naming the app's tool calls, sizing its frame. The bridge itself is ext-apps' AppBridge
 * (AppFrame.tsx); everything the app sends it is checked there or here before it reaches the
 * worker.
 */

/** Heights the frame may take, in CSS pixels, whatever the app asks for. */
export const MIN_APP_HEIGHT = 80;
export const MAX_APP_HEIGHT = 640;
export const DEFAULT_APP_HEIGHT = 240;

export function frameHeight(requested: unknown): number | undefined {
  if (typeof requested !== 'number' || !Number.isFinite(requested)) return undefined;
  return Math.round(Math.min(MAX_APP_HEIGHT, Math.max(MIN_APP_HEIGHT, requested)));
}

/** The page and what its server declared for it, as `apps/read` answered. */
export type AppPage = Omit<AppReadResult, 'part' | 'parts' | 'text'> & { readonly html: string };

type ReadPart = (params: ParamsOf<'apps/read'>) => Promise<ResultOf<'apps/read'>>;

/**
 * Reads a page whole: part 0 afresh, then the rest. Parts of two different reads (the server
 * changed the page in between) do not mix: the read starts again, once.
 */
export async function readWholePage(
  read: ReadPart,
  server: string,
  uri: string,
  profile: string | undefined,
): Promise<AppPage> {
  const scope = profile === undefined ? {} : { profile };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const first = await read({ server, uri, ...scope });
    const parts = [first.text];
    let mixed = false;
    for (let part = 1; part < first.parts && !mixed; part += 1) {
      const next = await read({ server, uri, part, ...scope });
      if (next.hash !== first.hash) mixed = true;
      else parts.push(next.text);
    }
    if (!mixed) {
      const { server: from, uri: page, hash, bytes, csp, ignored, permissions } = first;
      const border =
        first.prefersBorder === undefined ? {} : { prefersBorder: first.prefersBorder };
      return {
        server: from,
        uri: page,
        hash,
        bytes,
        csp,
        ignored,
        permissions,
        ...border,
        html: parts.join(''),
      };
    }
  }
  throw new Error(`The app page of ${server} kept changing while it was read; try again.`);
}

/**
 * The exposed name of a tool an app asks for by its server's own name: only that server's tools,
 * and only those an app may call (absent visibility means both). Undefined: not the app's to call.
 */
export function appToolName(
  tools: readonly ExposedTool[],
  server: string,
  requested: unknown,
): string | undefined {
  if (typeof requested !== 'string' || requested.length === 0 || requested.length > 256) {
    return undefined;
  }
  const tool = tools.find((t) => t.server === server && t.tool === requested);
  if (tool === undefined) return undefined;
  if (tool.ui !== undefined && !tool.ui.visibility.includes('app')) return undefined;
  return tool.name;
}

/**
 * The text an app asks to put in the chat (`ui/message`): its text blocks, joined, with every
 * invisible or reordering character (zero-width, bidi, Unicode tags) shown as a visible marker.
 * The user sends it as their own message: nothing in it may be there without being seen. (The
 * app's script made it in the browser: no gate of the host's has seen it.)
 */
export function messageText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        typeof block === 'object' &&
        block !== null &&
        (block as { type?: unknown }).type === 'text' &&
        typeof (block as { text?: unknown }).text === 'string',
    )
    .map((block) => sanitizeText(block.text.slice(0, 20_000)))
    .join('\n\n')
    .slice(0, 20_000);
}
