import { messageOf } from '../../protocol/guards';
import type {
  AgentRunEvent,
  RunEndReason,
  RunSummary,
  ToolOutcome,
} from '../messaging/agent-events';
import type { ApprovalDecision, ApprovalPrompt } from '../messaging/approvals';
import type { ProviderAccess } from '../messaging/provider';
import type {
  AssistantMessage,
  ChatMessage,
  ToolCallPart,
  ToolResultPart,
} from '../messaging/conversation';
import { estimateTokens } from '../../protocol/token-estimate';
import { outputReserve } from '../messaging/context-window';
import { messageTokens, toolTokens } from './context-meter';
import type { ImageTokenRule } from './image-tokens';
import { trimToBudget } from './context-trim';
import { fitResultText, resultCharBudget } from './result-fit';
import { INTERRUPTED_RESULT, toolCallsOf } from './pairing';
import { ABORTED, readTurn, whenAborted, type Call } from './model-turn';
import type { FinishReason, ModelProvider } from './providers/provider';
import { SEARCH_TOOLS_NAME } from '../../protocol/tool-search';
import { OUTCOME_TEXT, type ToolRouter, type ToolSpec } from './tool-outcome';
import { UNKNOWN_TOOL_IN_SEARCH_MODE } from './tool-search-mode';

/**
 * One bounded agent run, independent of any provider SDK: ask the model, run the tools it calls,
 * give it the results, until it answers without tools, hits the round limit, fails, or is
 * stopped (one turn of it is model-turn.ts). Whatever happens, every tool call in the transcript
 * gets exactly one result (messaging/conversation.ts): the transcript handed to `onTranscript` is
 * paired at every moment, because a round's results are written as `pending` placeholders
 * (saying "interrupted") before the first call starts and are replaced one by one.
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
  /**
   * Where the loop registers each running call's Cancel (the user's, for that call alone: the run
   * goes on and the model is told). Returns the unregistration. Absent: calls cannot be cancelled
   * one by one.
   */
  readonly onCallCancellable?: (callId: string, cancel: () => void) => () => void;
  readonly onEvent: (event: AgentRunEvent) => void;
  /** The whole transcript after every change (always paired): persist this. */
  readonly onTranscript: (messages: readonly ChatMessage[]) => void;
  /** Ids for calls whose provider id is missing, malformed or reused. */
  readonly newCallId?: () => string;
  /**
   * The model's context window in tokens (issue 14): before each request the oldest whole turns
   * that would not fit are left out (context-trim.ts). Absent: everything is sent.
   */
  readonly contextWindow?: number;
  /** Whose formula the trim counts images by (image-tokens.ts); default 'none'. */
  readonly imageRule?: ImageTokenRule;
  /** How many of the first messages the request about to go leaves out (0: none), on a change. */
  readonly onNotSent?: (count: number) => void;
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

  const finish = (reason: RunEndReason, error?: string, access?: ProviderAccess): RunSummary => {
    if (error !== undefined) {
      input.onEvent({ type: 'error', message: error, ...(access === undefined ? {} : { access }) });
    }
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
  // Tool search mode: search_tools is offered, and what it finds joins the tools from then on.
  const searchMode = toolNames.has(SEARCH_TOOLS_NAME);
  const usedIds = new Set(messages.flatMap((m) => toolCallsOf(m).map((call) => call.id)));

  // The tools a search found are sent from the next turn on: the budget follows them.
  const fixedTokens = (): number => estimateTokens(input.system) + toolTokens(tools);
  let notSent: number | undefined;
  const toSend = (): readonly ChatMessage[] => {
    const window = input.contextWindow;
    if (window === undefined) return messages;
    const budget = window - outputReserve(window) - fixedTokens();
    const trimmed = trimToBudget(messages, budget, (m) => messageTokens(m, input.imageRule));
    if (trimmed.dropped !== notSent) {
      notSent = trimmed.dropped;
      input.onNotSent?.(notSent);
    }
    return trimmed.messages;
  };

  // A result cut to what the window has left for the turn in progress (result-fit.ts): the trim
  // above can leave out earlier turns, never this one, so one huge result would otherwise make
  // the next request too large and end the run with the provider's refusal.
  const fitted = (outcome: ToolOutcome, callsInRound: number): ToolOutcome => {
    const window = input.contextWindow;
    if (window === undefined) return outcome;
    let turnTokens = 0;
    for (let i = messages.length - 1; i >= 0; i -= 1) {
      const message = messages[i];
      if (message === undefined) continue;
      turnTokens += messageTokens(message, input.imageRule);
      if (message.role === 'user') break;
    }
    const remaining = window - outputReserve(window) - fixedTokens() - turnTokens;
    const content = fitResultText(outcome.content, resultCharBudget(remaining, callsInRound));
    return content === outcome.content ? outcome : { ...outcome, content };
  };

  for (;;) {
    for (const found of input.tools.discovered?.() ?? []) {
      if (toolNames.has(found.name)) continue;
      toolNames.add(found.name);
      tools = [...tools, found];
    }
    const turn = await readTurn(input, tools, toSend(), aborted, usedIds, usage);
    const parts: AssistantMessage['content'] = [
      ...(turn.text === '' ? [] : [{ type: 'text' as const, text: turn.text }]),
      ...turn.calls.map((call) => call.part),
    ];
    const assistant: ChatMessage[] =
      parts.length === 0
        ? []
        : [
            {
              role: 'assistant',
              content: parts,
              ...(turn.usage === undefined ? {} : { usage: { ...turn.usage } }),
            },
          ];

    if (turn.end.kind === 'aborted' || turn.end.kind === 'error') {
      // Keep what the model said, and answer the calls it made before the stream ended.
      const outcome: ToolOutcome =
        turn.end.kind === 'aborted'
          ? { status: 'cancelled', content: OUTCOME_TEXT.stoppedBeforeRun }
          : { status: 'error', content: OUTCOME_TEXT.modelFailed };
      const results = settleAll(turn.calls, outcome);
      append(...assistant, ...(results.length === 0 ? [] : [{ role: 'tool' as const, results }]));
      return turn.end.kind === 'aborted'
        ? finish('aborted')
        : finish('error', turn.end.message, turn.end.access);
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
      const outcome = fitted(
        await runCall(input, call, toolNames, searchMode, aborted),
        turn.calls.length,
      );
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

function runStopped(signal: AbortSignal): boolean {
  return signal.aborted;
}

async function runCall(
  input: AgentRunInput,
  call: Call,
  toolNames: ReadonlySet<string>,
  searchMode: boolean,
  aborted: Promise<typeof ABORTED>,
): Promise<ToolOutcome> {
  const { part } = call;
  if (input.signal.aborted) return { status: 'cancelled', content: OUTCOME_TEXT.stoppedBeforeRun };
  if (call.problem !== undefined) return { status: 'error', content: call.problem };
  if (!toolNames.has(part.name)) {
    if (searchMode) return { status: 'error', content: UNKNOWN_TOOL_IN_SEARCH_MODE(part.name) };
    return {
      status: 'error',
      content: `There is no tool named '${part.name}' in this conversation. Use one of the tools you were given, by its exact name.`,
    };
  }
  const args = part.arguments;
  input.onEvent({ type: 'tool-call-started', callId: part.id, name: part.name, arguments: args });
  // The call's own signal: aborted by the run's (Stop) or by the user's Cancel of this call.
  const own = new AbortController();
  const stopOwn = (): void => {
    own.abort();
  };
  input.signal.addEventListener('abort', stopOwn, { once: true });
  const unregister = input.onCallCancellable?.(part.id, stopOwn) ?? (() => undefined);
  try {
    // A call stopped while it waits for the user (or once denied) has not run: say so.
    const approval: { state: 'not-asked' | 'waiting' | ApprovalDecision } = { state: 'not-asked' };
    const running = (async () =>
      input.tools.call(
        part.name,
        args,
        own.signal,
        async (prompt) => {
          approval.state = 'waiting';
          approval.state = await input.requestApproval(part.id, prompt);
          return approval.state;
        },
        (progress) => {
          if (!own.signal.aborted) {
            input.onEvent({ type: 'tool-call-progress', callId: part.id, progress });
          }
        },
      ))().catch((error: unknown): ToolOutcome => ({
      status: 'error',
      content: `The call failed: ${messageOf(error)}`,
    }));
    // A router that does not honour the signal cannot hold the run: stop waiting on abort.
    const outcome = await Promise.race([running, aborted, whenAborted(own.signal)]);
    if (outcome !== ABORTED) return outcome;
    const ran = approval.state !== 'waiting' && approval.state !== 'deny';
    // Read through a call: the signal has aborted since the check at the top.
    if (runStopped(input.signal)) {
      return {
        status: 'cancelled',
        content: ran ? OUTCOME_TEXT.stoppedDuringRun : OUTCOME_TEXT.stoppedBeforeRun,
      };
    }
    return {
      status: 'cancelled',
      content: ran ? OUTCOME_TEXT.cancelledDuringRun : OUTCOME_TEXT.cancelledBeforeRun,
    };
  } finally {
    unregister();
    input.signal.removeEventListener('abort', stopOwn);
  }
}
