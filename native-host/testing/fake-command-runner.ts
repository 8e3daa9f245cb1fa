import type { CommandRequest, CommandResult, CommandRunner } from '../secrets/run-command';

/**
 * A CommandRunner that records every request and answers from a script, so an OS backend's
 * command lines are checked on any OS. `answer` may throw to stand for a missing tool or a
 * timeout (the production runner rejects with SecretStoreError then).
 */
export class FakeCommandRunner {
  readonly requests: CommandRequest[] = [];

  constructor(
    private readonly answer: (request: CommandRequest) => CommandResult | Promise<CommandResult>,
  ) {}

  readonly run: CommandRunner = async (request) => {
    this.requests.push(request);
    return this.answer(request);
  };

  /** Every argument of every request, joined: for "the value never reaches an argv" checks. */
  argvText(): string {
    return this.requests.map((r) => [r.command, ...r.args].join('\u0000')).join('\n');
  }
}

export const ok = (stdout = '', stderr = ''): CommandResult => ({ code: 0, stdout, stderr });
export const exit = (code: number, stderr = '', stdout = ''): CommandResult => ({
  code,
  stdout,
  stderr,
});
