import { z } from 'zod';
import { EXPOSED_TOOL_NAME_PATTERN } from '../../protocol/tools';
import type {
  AgentRunEvent,
  RunEndReason,
  RunSummary,
  ToolOutcome,
} from '../messaging/agent-events';
import type { ApprovalDecision, ApprovalPrompt } from '../messaging/approvals';
import type {
  AssistantMessage,
  ChatMessage,
  ToolCallPart,
  ToolResultPart,
} from '../messaging/conversation';
import { INTERRUPTED_RESULT, toolCallsOf } from './pairing';
import type { FinishReason, ModelProvider, ProviderEvent } from './providers/provider';
import { OUTCOME_TEXT, type ToolRouter, type ToolSpec } from './tool-outcome';
import { messageOf } from '../../protocol/guards';

/**
 * One bounded agent run, independent of any provider SDK: ask the model, run the tools it calls,
 * give it the results, until it answers without tools, hits the round limit, fails, or is
 * stopped. Whatever happens, every tool call in the transcript gets exactly one result
 * (messaging/conversation.ts): the transcript handed to `onTranscript` is paired at every moment, because
 * a round's results are written as `pending` placeholders (saying "interrupted") before the first
 * call starts and are replaced one by one.
 */

export const DEFAULT_MAX_TOOL_ROUNDS = 10;

export interface AgentRunInput {
  readonly system: string;
  /** The transcript so far, ending with the user's new message. */
  readonly messages: readonly ChatMessage[];
  readonly provider: ModelProvider;
  readonly tools: ToolRouter;
  readonly signal: AbortSignal;
  readonly maxToolRounds?: number;
  /** Asks the user about one call; must resolve `deny` when the run is aborted. */
  readonly requestApproval: (callId: string, prompt: ApprovalPrompt) => Promise<ApprovalDecision>;
  readonly onEvent: (event: AgentRunEvent) => void;
  /** The whole transcript after every change (always paired): persist this. */
  readonly onTranscript: (messages: readonly ChatMessage[]) => void;
  /** Ids for calls whose provider id is missing, malformed or reused. */
  readonly newCallId?: () => string;
}

const ABORTED = Symbol('aborted');
const CALL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const JsonObjectSchema = z.record(z.string(), z.json());

interface Call {
  readonly part: ToolCallPart;
  /** Why the call cannot run at all (it still gets a result). */
  readonly problem: string | undefined;
}

interface Turn {
  readonly text: string;
  readonly calls: readonly Call[];
  readonly end:
    | { readonly kind: 'finish'; readonly reason: FinishReason }
    | { readonly kind: 'error'; readonly message: string }
    | { readonly kind: 'aborted' };
}

function defaultCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '')}`;
}

function whenAborted(signal: AbortSignal): Promise<typeof ABORTED> {
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

function result(call: ToolCallPart, outcome: ToolOutcome | 'pending'): ToolResultPart {
  return outcome === 'pending'
    ? {
        type: 'tool-result',
        callId: call.id,
        name: call.name,
        status: 'pending',
        content: INTERRUPTED_RESULT,
      }
    : { type: 'tool-result', callId: call.id, name: call.name, ...outcome };
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

async function readTurn(
  input: AgentRunInput,
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
        case 'tool-call':
          calls.push(normalizeCall(event, usedIds, newCallId));
          break;
        case 'finish':
          usage.inputTokens += event.usage?.inputTokens ?? 0;
          usage.outputTokens += event.usage?.outputTokens ?? 0;
          return { text, calls, end: { kind: 'finish', reason: event.reason } };
        case 'error':
          return { text, calls, end: { kind: 'error', message: event.message } };
      }
    }
  } catch (error) {
    if (input.signal.aborted) return { text, calls, end: { kind: 'aborted' } };
    return { text, calls, end: { kind: 'error', message: messageOf(error) } };
  }
}

function endReason(reason: FinishReason): RunEndReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content-filter';
    case 'stop':
    case 'tool-calls':
    case 'other':
      return 'completed';
  }
}

/** Runs the agent until it answers, fails or is stopped. Never throws: failures end it with `error`. */
export async function runAgent(input: AgentRunInput): Promise<RunSummary> {
  const { signal } = input;
  const maxRounds = input.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const aborted = whenAborted(signal);
  const usage = { inputTokens: 0, outputTokens: 0 };
  let messages: readonly ChatMessage[] = input.messages;
  let toolRounds = 0;

  const finish = (reason: RunEndReason, error?: string): RunSummary => {
    if (error !== undefined) input.onEvent({ type: 'error', message: error });
    const summary = { reason, usage: { ...usage }, toolRounds };
    input.onEvent({ type: 'done', ...summary });
    return summary;
  };
  const append = (...added: ChatMessage[]): void => {
    messages = [...messages, ...added];
    input.onTranscript(messages);
  };
  const settleAll = (calls: readonly Call[], outcome: ToolOutcome): ToolResultPart[] =>
    calls.map((call) => {
      input.onEvent({
        type: 'tool-call-finished',
        callId: call.part.id,
        name: call.part.name,
        outcome,
      });
      return result(call.part, outcome);
    });

  let tools: readonly ToolSpec[];
  try {
    const listed = await Promise.race([Promise.resolve(input.tools.list()), aborted]);
    if (listed === ABORTED) return finish('aborted');
    tools = listed;
  } catch (error) {
    return finish('error', `Could not list the tools: ${messageOf(error)}`);
  }
  const toolNames = new Set(tools.map((tool) => tool.name));
  const usedIds = new Set(messages.flatMap((m) => toolCallsOf(m).map((call) => call.id)));

  for (;;) {
    const turn = await readTurn(input, tools, messages, aborted, usedIds, usage);
    const parts: AssistantMessage['content'] = [
      ...(turn.text === '' ? [] : [{ type: 'text' as const, text: turn.text }]),
      ...turn.calls.map((call) => call.part),
    ];
    const assistant: ChatMessage[] =
      parts.length === 0 ? [] : [{ role: 'assistant', content: parts }];

    if (turn.end.kind === 'aborted' || turn.end.kind === 'error') {
      // Keep what the model said, and answer the calls it made before the stream ended.
      const outcome: ToolOutcome =
        turn.end.kind === 'aborted'
          ? { status: 'cancelled', content: OUTCOME_TEXT.stoppedBeforeRun }
          : { status: 'error', content: OUTCOME_TEXT.modelFailed };
      const results = settleAll(turn.calls, outcome);
      append(...assistant, ...(results.length === 0 ? [] : [{ role: 'tool' as const, results }]));
      return turn.end.kind === 'aborted' ? finish('aborted') : finish('error', turn.end.message);
    }
    if (turn.calls.length === 0) {
      append(...assistant);
      return finish(endReason(turn.end.reason));
    }
    if (toolRounds >= maxRounds) {
      const results = settleAll(turn.calls, {
        status: 'error',
        content: `Not run: this request reached its limit of ${maxRounds} tool rounds. Tell the user what you found so far; they can ask you to continue.`,
      });
      append(...assistant, { role: 'tool', results });
      return finish('max-tool-rounds');
    }

    toolRounds += 1;
    let results = turn.calls.map((call) => result(call.part, 'pending'));
    append(...assistant, { role: 'tool', results });
    for (const [index, call] of turn.calls.entries()) {
      const outcome = await runCall(input, call, toolNames, aborted);
      input.onEvent({
        type: 'tool-call-finished',
        callId: call.part.id,
        name: call.part.name,
        outcome,
      });
      const finished = result(call.part, outcome);
      results = results.map((r, i) => (i === index ? finished : r));
      messages = [...messages.slice(0, -1), { role: 'tool', results }];
      input.onTranscript(messages);
    }
    if (signal.aborted) return finish('aborted');
  }
}

async function runCall(
  input: AgentRunInput,
  call: Call,
  toolNames: ReadonlySet<string>,
  aborted: Promise<typeof ABORTED>,
): Promise<ToolOutcome> {
  const { part } = call;
  if (input.signal.aborted) return { status: 'cancelled', content: OUTCOME_TEXT.stoppedBeforeRun };
  if (call.problem !== undefined) return { status: 'error', content: call.problem };
  if (!toolNames.has(part.name)) {
    return {
      status: 'error',
      content: `There is no tool named '${part.name}' in this conversation. Use one of the tools you were given, by its exact name.`,
    };
  }
  const args = part.arguments;
  input.onEvent({ type: 'tool-call-started', callId: part.id, name: part.name, arguments: args });
  // A call stopped while it waits for the user (or once denied) has not run: say so.
  const approval: { state: 'not-asked' | 'waiting' | ApprovalDecision } = { state: 'not-asked' };
  const running = (async () =>
    input.tools.call(part.name, args, input.signal, async (prompt) => {
      approval.state = 'waiting';
      approval.state = await input.requestApproval(part.id, prompt);
      return approval.state;
    }))().catch((error: unknown): ToolOutcome => ({
    status: 'error',
    content: `The call failed: ${messageOf(error)}`,
  }));
  // A router that does not honour the signal cannot hold the run: stop waiting on abort.
  const outcome = await Promise.race([running, aborted]);
  if (outcome !== ABORTED) return outcome;
  const ran = approval.state !== 'waiting' && approval.state !== 'deny';
  return {
    status: 'cancelled',
    content: ran ? OUTCOME_TEXT.stoppedDuringRun : OUTCOME_TEXT.stoppedBeforeRun,
  };
}
