import type { CallToolResult, ToolChange, ToolPolicyState } from '../../protocol/tools';
import type { ToolDefinition } from '../shared/tool-definition';
import type { ApprovalLedger } from '../policy/approvals';
import { globMatches } from '../policy/glob';
import {
  decideToolPolicy,
  type PolicyDecision,
  type PolicyOverlay,
  type PolicyWarning,
  type ToolPolicyRules,
} from '../policy/tool-policy';
import { canonicalJson, sha256Hex } from '../shared/canonical-json';
import { diffToolDefinition, toolDefinitionHash, type PinnableTool } from '../trust/tool-pin';
import type { ToolPin, TrustSnapshot, TrustStore } from '../trust/trust-store';
import { safeText } from '../../protocol/untrusted/gate';
import { HostError } from '../shared/host-error';
import type { ListedTool } from './tool-listing';

/**
 * The per-call gate (design D7, D8): the user's policy rules, the tool's (untrusted) hints and its
 * pinned definition decide allow / ask / deny; an `ask` is answered with an approval request bound
 * to the exact arguments, and only a matching approval, once and unexpired, lets the call run.
 *
 * Pins are cached in memory, loaded once per server and updated on every pin this host writes:
 * the decision for a call must not wait on the disk, and a pin that another host wrote later can
 * only make this host ask more, never less.
 */

/** Largest arguments an approval card carries (the reply must fit one 1 MiB frame). */
export const MAX_APPROVAL_ARGUMENTS_BYTES = 256 * 1024;

function shownText(text: string): string {
  return safeText(text, { maxChars: 8_000 });
}

/**
 * `rule` names the policy rule that decided (a glob of `toolPolicy` or the profile's policy);
 * null when the default (`ask`) applied, or the user's approval did.
 */
export type CallDecision =
  | {
      readonly kind: 'run';
      readonly policy: 'allow' | 'approved';
      readonly pin: boolean;
      readonly rule: string | null;
    }
  | { readonly kind: 'deny' | 'ask'; readonly error: HostError; readonly rule: string | null }
  | { readonly kind: 'refused'; readonly error: HostError; readonly rule: null };

const WARNING_TEXT: Readonly<Record<PolicyWarning, string>> = {
  destructive: 'The server marks this tool as destructive.',
  'destructive-malformed': 'The server sent a malformed destructive hint; treated as destructive.',
  'definition-changed': "This tool's definition changed since you approved it.",
};

export function pinnable(definition: ToolDefinition): PinnableTool {
  return {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema: definition.inputSchema,
    annotations: {
      ...(definition.hints.title === undefined ? {} : { title: definition.hints.title }),
      readOnlyHint: definition.hints.readOnlyHint ?? null,
      destructiveHint: definition.hints.destructiveHint ?? null,
      idempotentHint: definition.hints.idempotentHint ?? null,
      openWorldHint: definition.hints.openWorldHint ?? null,
    },
  };
}

export interface ToolGateOptions {
  readonly trust: TrustStore;
  readonly rules: ToolPolicyRules;
  readonly ledger: ApprovalLedger;
}

export class ToolGate {
  private rules: ToolPolicyRules;
  private readonly trust: TrustStore;
  private readonly ledger: ApprovalLedger;
  private readonly pins = new Map<string, Map<string, ToolPin>>();
  /** Pin writes in progress, by server, tool and definition hash (see `pin`). */
  private readonly pinning = new Map<string, Promise<void>>();

  constructor(options: ToolGateOptions) {
    this.rules = options.rules;
    this.trust = options.trust;
    this.ledger = options.ledger;
  }

  setRules(rules: ToolPolicyRules): void {
    this.rules = rules;
  }

  /** Whether a policy rule written as `glob` applies to `exposedName`. */
  matchesRule(glob: string, exposedName: string): boolean {
    return globMatches(glob, exposedName);
  }

  /** Loads the pins of `servers` from one read of the trust store. */
  loadPins(
    servers: ReadonlyArray<{ scope: string; server: string }>,
    snapshot: TrustSnapshot,
  ): void {
    for (const { scope, server } of servers) {
      this.pins.set(pinKey(scope, server), snapshot.pinsOf(scope, server));
    }
  }

  /** Whether `definition` differs from what was pinned of it (its grants are suspended, D7). */
  pinChanged(scope: string, server: string, definition: ToolDefinition): boolean {
    return this.pinState(scope, server, definition).state === 'changed';
  }

  /**
   * Pins `definition` (D7): resolves once trust.json holds it. Concurrent pins of the same
   * definition share one write. The first calls of a newly allow-listed tool arrive together, and
   * each used to rewrite and fsync trust.json in turn behind the store's queue: 1,000 echo calls
   * in flight took 7.3 s instead of 0.4 s, and every other request waited behind them (issue 13).
   */
  pin(scope: string, server: string, definition: ToolDefinition): Promise<void> {
    const key = `${pinKey(scope, server)}\u0000${definition.name}\u0000${pinnedForm(definition).hash}`;
    const inFlight = this.pinning.get(key);
    if (inFlight !== undefined) return inFlight;
    const write = this.writePin(scope, server, definition).finally(() => {
      this.pinning.delete(key);
    });
    this.pinning.set(key, write);
    return write;
  }

  private async writePin(scope: string, server: string, definition: ToolDefinition): Promise<void> {
    const stored = await this.trust.pinTool(scope, server, pinnedForm(definition).tool);
    const key = pinKey(scope, server);
    const map = this.pins.get(key) ?? new Map<string, ToolPin>();
    map.set(definition.name, stored);
    this.pins.set(key, map);
  }

  /** The policy state shown in listings: what a call without an approval would meet. */
  policyState(
    scope: string,
    server: string,
    definition: ToolDefinition,
    exposedName: string,
    overlay?: PolicyOverlay,
  ): ToolPolicyState {
    const { decision, pin } = this.decide(scope, server, definition, exposedName, overlay);
    switch (decision.kind) {
      case 'allow':
        return 'allow';
      case 'deny':
        return 'deny';
      case 'ask':
        // Suspended: allowed, until the definition changed under the grant (D7).
        return pin.state === 'changed' &&
          decision.rule !== null &&
          this.decideWith(exposedName, definition, 'match', overlay).kind === 'allow'
          ? 'suspended'
          : 'ask';
    }
  }

  /** Decides one call. `approval` is what the user gave for an earlier `approval-required`. */
  check(
    scope: string,
    listed: ListedTool,
    args: Record<string, unknown> | undefined,
    approval: { requestId: string; nonce: string } | undefined,
    overlay?: PolicyOverlay,
  ): CallDecision {
    const { exposed, server, definition } = listed;
    const { decision, pin } = this.decide(scope, server, definition, exposed.name, overlay);
    switch (decision.kind) {
      case 'deny':
        return {
          kind: 'deny',
          error: new HostError(
            'denied',
            `'${exposed.name}' is denied by your tool policy (rule '${decision.rule}'). Change it in the popup to use it.`,
            { name: exposed.name, rule: decision.rule },
          ),
          rule: decision.rule,
        };
      case 'allow':
        return { kind: 'run', policy: 'allow', pin: pin.state === 'unpinned', rule: decision.rule };
      case 'ask':
        break;
    }
    if (approval === undefined) {
      // The difference quotes the server's own text: made safe like every other string (D9).
      const changes: ToolChange[] =
        pin.state === 'changed'
          ? pin.changes.map((c) => ({
              field: c.field,
              before: shownText(c.before),
              after: shownText(c.after),
            }))
          : [];
      const argumentsBytes = this.argumentsFacts(args).argumentsBytes;
      if (argumentsBytes > MAX_APPROVAL_ARGUMENTS_BYTES) {
        // The card must show every byte it binds; this much cannot be reviewed (or framed).
        return {
          kind: 'refused',
          error: new HostError(
            'invalid-params',
            `The arguments for '${exposed.name}' are ${argumentsBytes} bytes, too large to show for approval (limit ${MAX_APPROVAL_ARGUMENTS_BYTES}). Allow-list the tool to call it with arguments this large.`,
            { argumentsBytes, limit: MAX_APPROVAL_ARGUMENTS_BYTES },
          ),
          rule: null,
        };
      }
      const request = this.ledger.issue({
        server,
        tool: definition.name,
        exposedName: exposed.name,
        definitionHash: pinnedForm(definition).hash,
        arguments: args,
        warnings: decision.warnings.map((w) => WARNING_TEXT[w]),
      });
      return {
        kind: 'ask',
        error: new HostError(
          'approval-required',
          `'${exposed.name}' needs your approval for this call.`,
          {
            approval: {
              requestId: request.requestId,
              nonce: request.nonce,
              server,
              tool: exposed.tool,
              exposedName: exposed.name,
              arguments: request.arguments,
              argumentsHash: request.argumentsHash,
              warnings: [...request.warnings],
              changes,
              ...(exposed.annotations === undefined ? {} : { annotations: exposed.annotations }),
              expiresAt: request.expiresAt,
            },
          },
        ),
        rule: decision.rule,
      };
    }
    // Bound to the tool the name resolves to now: if the listing was rebuilt while the card was
    // open (the server restarted, a reload) and the name points at another server's tool, or the
    // server changed this tool's definition, the click is not for this call.
    const redeemed = this.ledger.redeem(approval, {
      server,
      tool: definition.name,
      exposedName: exposed.name,
      definitionHash: pinnedForm(definition).hash,
      arguments: args,
    });
    if (!redeemed.ok) {
      return {
        kind: 'refused',
        error: new HostError(
          'approval-invalid',
          `The approval does not hold for this call (${redeemed.reason}); ask the user again.`,
          { why: redeemed.reason },
        ),
        rule: null,
      };
    }
    // The user saw this definition (and any difference) on the card: pin it (D7).
    return { kind: 'run', policy: 'approved', pin: pin.state !== 'pinned', rule: null };
  }

  /** The user refused a pending approval: the call it was for, or undefined if none was pending. */
  deny(
    requestId: string,
  ): { readonly server: string; readonly tool: string; readonly exposedName: string } | undefined {
    const request = this.ledger.withdraw(requestId);
    return request === undefined
      ? undefined
      : { server: request.server, tool: request.tool, exposedName: request.exposedName };
  }

  denyAll(): void {
    this.ledger.cancelAll();
  }

  /**
   * Size and hash of the arguments, for the audit log (never the values). The hash is the one an
   * approval card shows (`approvalArgumentsHash`: SHA-256 of the canonical JSON, `{}` for none),
   * computed from the same canonical text as the size.
   */
  argumentsFacts(args: Record<string, unknown> | undefined): {
    argumentsBytes: number;
    argumentsHash: string;
  } {
    const text = safeCanonical(args ?? {});
    return { argumentsBytes: Buffer.byteLength(text, 'utf8'), argumentsHash: sha256Hex(text) };
  }

  static resultFacts(result: CallToolResult): { resultBytes: number; resultHash: string } {
    const text = safeCanonical(result);
    return { resultBytes: Buffer.byteLength(text, 'utf8'), resultHash: sha256Hex(text) };
  }

  private decide(
    scope: string,
    server: string,
    definition: ToolDefinition,
    exposedName: string,
    overlay: PolicyOverlay | undefined,
  ): { decision: PolicyDecision; pin: PinState } {
    const pin = this.pinState(scope, server, definition);
    const pinInput =
      pin.state === 'unpinned' ? 'unpinned' : pin.state === 'pinned' ? 'match' : 'changed';
    return { decision: this.decideWith(exposedName, definition, pinInput, overlay), pin };
  }

  private decideWith(
    exposedName: string,
    definition: ToolDefinition,
    pin: 'unpinned' | 'match' | 'changed',
    overlay?: PolicyOverlay,
  ): PolicyDecision {
    const decision = decideToolPolicy({
      exposedName,
      rules:
        overlay === undefined || overlay.rules.length === 0
          ? this.rules
          : [...this.rules, ...overlay.rules],
      hints: {
        destructiveHint: definition.hints.destructiveHint,
        readOnlyHint: definition.hints.readOnlyHint,
      },
      pin,
      // Autopilot never grants an MCP call (D8): the extension's toggle covers built-in tools only.
      autopilot: false,
    });
    if (overlay?.askOnly === true && decision.kind === 'allow') {
      return { kind: 'ask', warnings: [], rule: decision.rule };
    }
    return decision;
  }

  private pinState(scope: string, server: string, definition: ToolDefinition): PinState {
    const pin = this.pins.get(pinKey(scope, server))?.get(definition.name);
    if (pin === undefined) return { state: 'unpinned' };
    const current = pinnedForm(definition);
    if (pin.hash === current.hash) return { state: 'pinned' };
    return { state: 'changed', changes: diffToolDefinition(pin.tool, current.tool) };
  }
}

/**
 * The pinnable form of each definition and its hash, computed once per definition object: every
 * call checks its tool's pin, and hashing the canonical definition (schema included) was the
 * largest cost of the gate. Sound because a ToolDefinition is never modified: a new listing from
 * the server makes new objects, which miss this cache and are hashed afresh.
 */
const pinnedForms = new WeakMap<ToolDefinition, { tool: PinnableTool; hash: string }>();

function pinnedForm(definition: ToolDefinition): { tool: PinnableTool; hash: string } {
  let form = pinnedForms.get(definition);
  if (form === undefined) {
    const tool = pinnable(definition);
    form = { tool, hash: toolDefinitionHash(tool) };
    pinnedForms.set(definition, form);
  }
  return form;
}

type PinState =
  { state: 'unpinned' } | { state: 'pinned' } | { state: 'changed'; changes: ToolChange[] };

function pinKey(scope: string, server: string): string {
  return `${scope}\u0000${server}`;
}

function safeCanonical(value: unknown): string {
  try {
    return canonicalJson(value);
  } catch {
    return JSON.stringify(value);
  }
}
