import type { ApprovalPrompter, ToolRouter, ToolSpec } from '../tool-outcome';
import type { CallProgress, ToolOutcome } from '../../messaging/agent-events';

export type FakeToolHandler = (
  args: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
  prompt: ApprovalPrompter,
  onProgress: (progress: CallProgress) => void,
) => Promise<ToolOutcome>;

/** A ToolRouter whose tools are test functions; records every call it routes. */
export class FakeTools implements ToolRouter {
  readonly calls: { name: string; args: Readonly<Record<string, unknown>> }[] = [];

  constructor(private readonly handlers: Readonly<Record<string, FakeToolHandler>>) {}

  list(): readonly ToolSpec[] {
    return Object.keys(this.handlers).map((name) => ({
      name,
      description: `The ${name} tool.`,
      inputSchema: { type: 'object', properties: {} },
      source: { kind: 'mcp', server: 'fake', tool: name, tokens: 10, policy: 'allow' },
    }));
  }

  call(
    name: string,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
    prompt: ApprovalPrompter,
    onProgress?: (progress: CallProgress) => void,
  ): Promise<ToolOutcome> {
    this.calls.push({ name, args });
    const handler = this.handlers[name];
    if (handler === undefined) return Promise.reject(new Error(`no fake tool ${name}`));
    return handler(args, signal, prompt, onProgress ?? (() => undefined));
  }
}

/** A handler that answers `content` at once. */
export function answers(content: string): FakeToolHandler {
  return () => Promise.resolve({ status: 'ok', content });
}

/** A handler that never settles unless its signal aborts (`honourSignal`), like a slow server. */
export function blocks(honourSignal: boolean): FakeToolHandler {
  return (_args, signal) =>
    new Promise((resolve) => {
      if (!honourSignal) return;
      signal.addEventListener('abort', () => {
        resolve({ status: 'cancelled', content: 'cancelled by the tool' });
      });
    });
}
