import { z } from 'zod';
import { messageOf } from '../../protocol/guards';
import { EXPOSED_TOOL_NAME_PATTERN } from '../../protocol/tools';
import type { AgentRunEvent, Usage } from '../messaging/agent-events';
import type { ChatMessage, ToolCallPart } from '../messaging/conversation';
import type { ProviderAccess } from '../messaging/provider';
import type { FinishReason, ModelProvider, ProviderEvent } from './providers/provider';
import type { ToolSpec } from './tool-outcome';

/**
 * One model turn of an agent run (agent-loop.ts): read the provider's stream until it finishes,
 * fails or the run is stopped, raced against the abort so a provider that ignores its signal
 * cannot hold the run.
 */

/** What a race against the run's abort resolves with when the run was stopped first. */
export const ABORTED = Symbol('aborted');
const CALL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const JsonObjectSchema = z.record(z.string(), z.json());

export interface Call {
  readonly part: ToolCallPart;
  /** Why the call cannot run at all (it still gets a result). */
  readonly problem: string | undefined;
}

export interface Turn {
  readonly text: string;
  readonly calls: readonly Call[];
  /** What the provider reported this step used; absent when it reported nothing. */
  readonly usage?: Usage;
  readonly end:
    | { readonly kind: 'finish'; readonly reason: FinishReason }
    | { readonly kind: 'error'; readonly message: string; readonly access?: ProviderAccess }
    | { readonly kind: 'aborted' };
}

function defaultCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** Resolves ABORTED once `signal` aborts (at once if it already has). */
export function whenAborted(signal: AbortSignal): Promise<typeof ABORTED> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(ABORTED);
    signal.addEventListener(
      'abort',
      () => {
        resolve(ABORTED);
      },
      { once: true },
    );
  });
}

/**
 * Makes a provider's tool call safe to store: the transcript is re-sent every turn, so a bad id
 * or name in it would fail every later request (design D4), not just this one.
 */
function normalizeCall(
  event: Extract<ProviderEvent, { type: 'tool-call' }>,
  usedIds: Set<string>,
  newCallId: () => string,
): Call {
  let id = event.id;
  while (!CALL_ID_PATTERN.test(id) || usedIds.has(id)) id = newCallId();
  usedIds.add(id);
  const legalName = EXPOSED_TOOL_NAME_PATTERN.test(event.name);
  const name = legalName
    ? event.name
    : event.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'unknown_tool';
  // Providers require an object here (Anthropic's tool_use.input): anything else is stored as {}.
  const json = JsonObjectSchema.safeParse(event.arguments ?? {});
  const args = json.success ? json.data : {};
  const problem = !legalName
    ? `There is no tool named '${name}'. Use one of the tools you were given, by its exact name.`
    : !json.success
      ? "Not run: the arguments must be a JSON object matching the tool's input schema."
      : undefined;
  return { part: { type: 'tool-call', id, name, arguments: args }, problem };
}

/**
 * Most tool calls one model reply may have run. A model can emit as many calls in one reply as
 * its output allows (a couple of hundred); with autopilot or allow-listed tools every one of them
 * would run before the user could look. The rest are answered with TOO_MANY_CALLS.
 */
export const MAX_CALLS_PER_TURN = 16;
const TOO_MANY_CALLS = `Not run: a reply may make at most ${String(MAX_CALLS_PER_TURN)} tool calls. Make the calls you still need in your next reply.`;

/** A token count as stored (UsageSchema): a whole number, not negative. */
function tokenCount(reported: number): number {
  const rounded = Math.round(reported);
  return Number.isSafeInteger(rounded) && rounded > 0 ? rounded : 0;
}

/**
 * The provider's figures as the transcript can keep them: the store parses every transcript it
 * reads back, so one fraction or negative count would make the whole conversation unreadable.
 */
function storableUsage(reported: Usage): Usage {
  return {
    inputTokens: tokenCount(reported.inputTokens),
    outputTokens: tokenCount(reported.outputTokens),
  };
}

/** What reading one turn needs from the run (AgentRunInput has all of it). */
export interface TurnInput {
  readonly system: string;
  readonly provider: ModelProvider;
  readonly signal: AbortSignal;
  readonly onEvent: (event: AgentRunEvent) => void;
  readonly newCallId?: () => string;
}

/**
 * Streams one model turn: its text (relayed as `text-delta` events as it arrives), its tool calls
 * made safe to store, and how it ended. Never throws; adds the turn's usage to `usage`.
 */
export async function readTurn(
  input: TurnInput,
  tools: readonly ToolSpec[],
  messages: readonly ChatMessage[],
  aborted: Promise<typeof ABORTED>,
  usedIds: Set<string>,
  usage: { inputTokens: number; outputTokens: number },
): Promise<Turn> {
  let text = '';
  const calls: Call[] = [];
  const newCallId = input.newCallId ?? defaultCallId;
  try {
    const stream = input.provider.stream({
      system: input.system,
      messages,
      tools,
      signal: input.signal,
    });
    const iterator = stream[Symbol.asyncIterator]();
    for (;;) {
      // Raced against the abort, so a provider that ignores its signal cannot hold the run.
      const next = await Promise.race([iterator.next(), aborted]);
      if (next === ABORTED) {
        iterator.return?.().catch(() => undefined);
        return { text, calls, end: { kind: 'aborted' } };
      }
      if (next.done === true) return { text, calls, end: { kind: 'finish', reason: 'stop' } };
      const event = next.value;
      switch (event.type) {
        case 'text-delta':
          text += event.text;
          input.onEvent({ type: 'text-delta', text: event.text });
          break;
        case 'tool-call': {
          const call = normalizeCall(event, usedIds, newCallId);
          // Past the cap, a call is kept (every call needs its result in the transcript) and
          // answered without running: one reply must not run a few hundred tools at once.
          calls.push(
            calls.length < MAX_CALLS_PER_TURN || call.problem !== undefined
              ? call
              : { ...call, problem: TOO_MANY_CALLS },
          );
          break;
        }
        case 'finish': {
          const step = event.usage === undefined ? undefined : storableUsage(event.usage);
          usage.inputTokens += step?.inputTokens ?? 0;
          usage.outputTokens += step?.outputTokens ?? 0;
          return {
            text,
            calls,
            ...(step === undefined ? {} : { usage: step }),
            end: { kind: 'finish', reason: event.reason },
          };
        }
        case 'error':
          return { text, calls, end: { ...event, kind: 'error' } };
      }
    }
  } catch (error) {
    if (input.signal.aborted) return { text, calls, end: { kind: 'aborted' } };
    return { text, calls, end: { kind: 'error', message: messageOf(error) } };
  }
}
