import type { BuiltinToolName } from '../../../protocol/builtin-tools';
import type { ToolAnnotations, ToolChange } from '../../../protocol/tools';
import type { ApprovalDecision, PendingApproval } from '../../messaging/approvals';
import type { ChatMessage } from '../../messaging/conversation';

/**
 * What an approval card shows (issue 4, design D8): who asks to run what with which arguments,
 * and every reason to look twice. The host's warnings come first, as it wrote them; the panel adds
 * what only it knows (untrusted content earlier in this conversation) and what the host may have
 * put differently (a destructive hint, a changed definition), so none of them can go unsaid.
 */

export interface ApprovalWarning {
  readonly tone: 'danger' | 'warning';
  readonly text: string;
}

export interface ApprovalView {
  readonly kind: 'mcp' | 'builtin';
  /** The configured server; null for Switchyard's own browser tools. */
  readonly server: string | null;
  /** The tool's own name (the server's raw name, or the built-in tool's). */
  readonly tool: string;
  /** The name the model called it by. */
  readonly exposedName: string;
  /** What a built-in tool does, in words; null for MCP tools (their descriptions are untrusted). */
  readonly description: string | null;
  readonly arguments: unknown;
  readonly warnings: readonly ApprovalWarning[];
  /** How the definition changed since it was approved (before/after), if it did. */
  readonly changes: readonly ToolChange[];
  /** The server's claims about the tool, unverified. */
  readonly annotations: readonly { readonly label: string; readonly value: string }[];
  /** Epoch ms after which "Allow" no longer works; null when it does not expire. */
  readonly expiresAt: number | null;
  /**
   * The server claims the tool is destructive (`destructiveHint: true`), or the host says so (it
   * also reads a malformed hint as destructive). Unverified, but a claim that only tightens.
   */
  readonly destructive: boolean;
}

const BUILTIN_DESCRIPTIONS: Readonly<Record<BuiltinToolName, string>> = {
  browser_read_page: "Reads the text of the active tab's page.",
  browser_get_selection: 'Reads the text selected in the active tab.',
  browser_get_tab: 'Reads the active tab’s URL and title.',
  browser_list_tabs: 'Lists your open tabs (titles and URLs).',
  browser_screenshot: 'Takes a screenshot of what the active tab shows.',
};

/** What tab a built-in tool's arguments name: `tabId`, or the active tab when they name none. */
const OTHER_TAB_DESCRIPTIONS: Partial<Record<BuiltinToolName, (tab: number) => string>> = {
  browser_read_page: (tab) =>
    `Reads the text of the page in tab ${String(tab)}, which may not be the tab you are looking at.`,
  browser_get_selection: (tab) =>
    `Reads the text selected in tab ${String(tab)}, which may not be the tab you are looking at.`,
  browser_get_tab: (tab) => `Reads the URL and title of tab ${String(tab)}.`,
};

/** The card's sentence for a built-in tool: the tab the call names, never "active" for another. */
function builtinDescription(tool: BuiltinToolName, args: unknown): string {
  const tab =
    typeof args === 'object' && args !== null ? (args as { tabId?: unknown }).tabId : undefined;
  const other = OTHER_TAB_DESCRIPTIONS[tool];
  return typeof tab === 'number' && other !== undefined ? other(tab) : BUILTIN_DESCRIPTIONS[tool];
}

/** Tool results whose text came from outside: a server's output, a page, or an error it wrote. */
const UNTRUSTED_STATUSES = new Set(['ok', 'error']);

/**
 * Where the outside text in this conversation came from, first occurrence first: the tools whose
 * results carry it (server output, page text), and what the user attached to a message (a
 * server's resource as `server/name`, a file or a page's selection by its name, an image). Such text can
 * ask the model to make calls the user never wanted, whoever put it into the conversation.
 */
export function untrustedSources(messages: readonly ChatMessage[]): string[] {
  const names: string[] = [];
  const add = (name: string): void => {
    if (!names.includes(name)) names.push(name);
  };
  for (const message of messages) {
    if (message.role === 'user') {
      for (const attachment of message.attachments ?? []) {
        add(`${attachment.server}/${attachment.name === '' ? attachment.uri : attachment.name}`);
      }
      for (const file of message.files ?? []) add(file.name);
      // A screenshot or picture can carry written instructions as well as text can.
      if ((message.images ?? []).length > 0) add('an attached image');
    }
    if (message.role !== 'tool') continue;
    for (const result of message.results) {
      if (UNTRUSTED_STATUSES.has(result.status)) add(result.name);
    }
  }
  return names;
}

function listNames(names: readonly string[], max = 3): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

export function untrustedWarning(sources: readonly string[]): ApprovalWarning | null {
  if (sources.length === 0) return null;
  return {
    tone: 'warning',
    text: `Untrusted content is in this conversation (from ${listNames(sources)}). It may have asked for this call: check that you want exactly these arguments.`,
  };
}

const YES_NO = (value: boolean): string => (value ? 'yes' : 'no');

function annotationRows(
  annotations: ToolAnnotations | undefined,
): { readonly label: string; readonly value: string }[] {
  if (annotations === undefined) return [];
  const rows: { label: string; value: string }[] = [];
  if (annotations.title !== undefined) rows.push({ label: 'Title', value: annotations.title });
  if (annotations.readOnlyHint !== undefined) {
    rows.push({ label: 'Read-only', value: YES_NO(annotations.readOnlyHint) });
  }
  if (annotations.destructiveHint !== undefined) {
    rows.push({ label: 'Destructive', value: YES_NO(annotations.destructiveHint) });
  }
  if (annotations.idempotentHint !== undefined) {
    rows.push({ label: 'Idempotent', value: YES_NO(annotations.idempotentHint) });
  }
  if (annotations.openWorldHint !== undefined) {
    rows.push({ label: 'Reaches outside services', value: YES_NO(annotations.openWorldHint) });
  }
  return rows;
}

function mentions(warnings: readonly string[], word: RegExp): boolean {
  return warnings.some((warning) => word.test(warning));
}

export function approvalView(
  pending: PendingApproval,
  messages: readonly ChatMessage[],
): ApprovalView {
  const untrusted = untrustedWarning(untrustedSources(messages));
  const prompt = pending.prompt;
  if (prompt.kind === 'builtin') {
    return {
      kind: 'builtin',
      server: null,
      tool: prompt.tool,
      exposedName: prompt.tool,
      description: builtinDescription(prompt.tool, prompt.arguments),
      arguments: prompt.arguments,
      warnings: untrusted === null ? [] : [untrusted],
      changes: [],
      annotations: [],
      expiresAt: null,
      destructive: false,
    };
  }
  const request = prompt.request;
  // The host's words, as written; its destructive warning gets the danger tone the panel's own
  // would have (issue 14: the card of a destructive tool looks like one). It covers a malformed
  // hint too ("treated as destructive"), which the parsed annotations cannot carry.
  const warnings: ApprovalWarning[] = request.warnings.map((text) => ({
    tone: /destructive/i.test(text) ? 'danger' : 'warning',
    text,
  }));
  const hostSaysDestructive = mentions(request.warnings, /destructive/i);
  const destructive = request.annotations?.destructiveHint === true || hostSaysDestructive;
  if (request.annotations?.destructiveHint === true && !hostSaysDestructive) {
    warnings.push({
      tone: 'danger',
      text: 'The server marks this tool as destructive: it may delete or overwrite data.',
    });
  }
  if (request.changes.length > 0 && !mentions(request.warnings, /chang/i)) {
    warnings.push({
      tone: 'danger',
      text: "This tool's definition changed since you approved it: compare before and after below.",
    });
  }
  if (untrusted !== null) warnings.push(untrusted);
  return {
    kind: 'mcp',
    server: request.server,
    tool: request.tool,
    exposedName: request.exposedName,
    description: null,
    arguments: request.arguments,
    warnings,
    changes: request.changes,
    annotations: annotationRows(request.annotations),
    expiresAt: request.expiresAt,
    destructive,
  };
}

export interface ApprovalButton {
  readonly decision: ApprovalDecision;
  readonly label: string;
  readonly variant: 'primary' | 'secondary' | 'danger';
}

/**
 * The card's answers, in focus order (issue 14). The first is the default: the primary button,
 * the first one Tab reaches. For a tool that claims to be destructive the default is Deny, and
 * "Always allow" needs a second, plain-worded step (`confirmAlways`, null when it takes effect at
 * once). `readOnlyHint` changes nothing: like the host (design D8), the card lets annotations
 * tighten, never loosen, and an absent hint is no claim either way.
 */
export interface ApprovalChoices {
  readonly buttons: readonly ApprovalButton[];
  readonly confirmAlways: string | null;
}

export const ALLOW_ONCE_LABEL = 'Allow once';
export const ALWAYS_LABEL = 'Always allow this tool';
export const DENY_LABEL = 'Deny';
/** The second step's buttons, for a destructive tool. */
export const CONFIRM_ALWAYS_LABEL = 'Yes, always allow';
export const CANCEL_ALWAYS_LABEL = 'No, go back';

export function approvalChoices(view: ApprovalView): ApprovalChoices {
  if (!view.destructive) {
    return {
      buttons: [
        { decision: 'allow-once', label: ALLOW_ONCE_LABEL, variant: 'primary' },
        { decision: 'always', label: ALWAYS_LABEL, variant: 'secondary' },
        { decision: 'deny', label: DENY_LABEL, variant: 'danger' },
      ],
      confirmAlways: null,
    };
  }
  return {
    buttons: [
      { decision: 'deny', label: DENY_LABEL, variant: 'primary' },
      { decision: 'allow-once', label: ALLOW_ONCE_LABEL, variant: 'secondary' },
      { decision: 'always', label: ALWAYS_LABEL, variant: 'secondary' },
    ],
    // The host still asks before every call of a tool marked destructive, allow-listed or not
    // (tool-policy.ts): say what "always" really buys, so nobody expects silence.
    confirmAlways: `Add ${view.exposedName} to your allow-list? Its server says it may delete or overwrite data. This call runs now; while the server marks the tool destructive, Switchyard still asks before every call.`,
  };
}

/** "expires in 4 min", "expires in 30 s", "expired": for the card's footer. */
export function expiryText(expiresAt: number, now: number): string {
  const ms = expiresAt - now;
  if (ms <= 0) return 'expired: Allow will fail; ask again';
  if (ms < 60_000) return `expires in ${Math.ceil(ms / 1000)} s`;
  return `expires in ${Math.ceil(ms / 60_000)} min`;
}
