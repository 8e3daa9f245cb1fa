import { z } from 'zod';
import { ApprovalRequestSchema, type ApprovalRequest } from '../../protocol/tools';
import { HostError } from '../shared/host-error';
import { confirm } from './prompt';
import type { CliIo } from './io';
import { withCore } from './session';
import { messageOf } from '../../protocol/guards';

const ArgumentsSchema = z.record(z.string(), z.unknown());

export const CALL_USAGE =
  "usage: switchyard call <tool> ['<json arguments>'] [--yes]   (list tools with 'switchyard tools')\n";

export type CallArgs =
  | {
      readonly ok: true;
      readonly tool: string;
      readonly rawArgs: string | undefined;
      readonly yes: boolean;
    }
  | { readonly ok: false; readonly error: string };

/**
 * `call <tool> ['<json>'] [--yes]`, parsed without I/O. A flag it does not know (`--help`) or a
 * third word (JSON the shell split for want of quotes) is refused, not taken for a tool or dropped.
 */
export function parseCallArgs(argv: readonly string[]): CallArgs {
  let yes = false;
  const words: string[] = [];
  for (const arg of argv) {
    if (arg === '--yes') yes = true;
    else if (arg.startsWith('--'))
      return { ok: false, error: `unknown argument '${arg.slice(0, 100)}'` };
    else words.push(arg);
  }
  const [tool, rawArgs, extra] = words;
  if (tool === undefined) return { ok: false, error: 'name the tool, e.g. memory__read_graph' };
  if (extra !== undefined) {
    return {
      ok: false,
      error: `unexpected '${extra.slice(0, 100)}': give the arguments as one JSON object in single quotes`,
    };
  }
  return { ok: true, tool, rawArgs, yes };
}

/**
 * `switchyard call <tool> ['<json arguments>']`: calls one tool through the same pipeline the
 * agent uses and prints the result as JSON. Exit code 0 on success, 1 on a tool error or failure.
 */
export async function call(io: CliIo, argv: readonly string[]): Promise<number> {
  const parsed = parseCallArgs(argv);
  if (!parsed.ok) {
    io.err(`switchyard call: ${parsed.error}\n${CALL_USAGE}`);
    return 2;
  }
  const { tool: name, rawArgs, yes } = parsed;
  let parsedArgs: Record<string, unknown> = {};
  if (rawArgs !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(rawArgs);
    } catch (error) {
      io.err(`switchyard call: arguments are not valid JSON: ${messageOf(error)}\n`);
      return 2;
    }
    const checked = ArgumentsSchema.safeParse(value);
    if (!checked.success) {
      io.err('switchyard call: arguments must be a JSON object, e.g. \'{"message": "hi"}\'\n');
      return 2;
    }
    parsedArgs = checked.data;
  }
  return withCore(
    io,
    async (core) => {
      try {
        let result;
        try {
          result = await core.callTool(name, parsedArgs);
        } catch (error) {
          // The tool's policy is `ask` (the default): the person at the terminal is the one asked.
          const approval =
            error instanceof HostError && error.reason === 'approval-required'
              ? ApprovalRequestSchema.safeParse(error.details['approval']).data
              : undefined;
          if (!approval) throw error;
          io.err(`${formatApproval(approval)}\n`);
          const ok = yes || (await confirm(`Run '${approval.exposedName}' with these arguments?`));
          if (!ok) {
            core.denyApproval(approval.requestId);
            io.err(
              process.stdin.isTTY
                ? 'Not run.\n'
                : 'Not run: no terminal to ask (pass --yes to approve this call).\n',
            );
            return 1;
          }
          result = await core.callTool(name, parsedArgs, {
            approval: { requestId: approval.requestId, nonce: approval.nonce },
          });
        }
        io.out(`${JSON.stringify(result, null, 2)}\n`);
        return result.isError === true ? 1 : 0;
      } catch (error) {
        if (error instanceof HostError) {
          io.err(`switchyard call: ${error.reason}: ${error.message}\n`);
          return 1;
        }
        throw error;
      }
    },
    { command: 'call' },
  );
}

function formatApproval(request: ApprovalRequest): string {
  const lines = [
    `Approval needed: ${request.exposedName} (server '${request.server}', tool '${request.tool}')`,
    `  arguments: ${JSON.stringify(request.arguments, null, 2).replace(/\n/g, '\n  ')}`,
  ];
  for (const warning of request.warnings) lines.push(`  ! ${warning}`);
  for (const change of request.changes)
    lines.push(`  changed ${change.field}:\n    ${change.before}\n    -> ${change.after}`);
  return lines.join('\n');
}
