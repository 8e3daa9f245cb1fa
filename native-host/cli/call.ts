import { z } from 'zod';
import { HostError } from '../host/host-error';
import type { CliIo } from './io';
import { withCore } from './session';

const ArgumentsSchema = z.record(z.string(), z.unknown());

/**
 * `switchyard call <tool> ['<json arguments>']`: calls one tool through the same pipeline the
 * agent uses and prints the result as JSON. Exit code 0 on success, 1 on a tool error or failure.
 */
export async function call(io: CliIo, args: readonly string[]): Promise<number> {
  const [name, rawArgs] = args;
  if (name === undefined) {
    io.err(
      "usage: switchyard call <tool> '<json arguments>'   (list tools with 'switchyard tools')\n",
    );
    return 2;
  }
  let parsedArgs: Record<string, unknown> = {};
  if (rawArgs !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(rawArgs);
    } catch (error) {
      io.err(
        `switchyard call: arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 2;
    }
    const checked = ArgumentsSchema.safeParse(value);
    if (!checked.success) {
      io.err('switchyard call: arguments must be a JSON object, e.g. \'{"message": "hi"}\'\n');
      return 2;
    }
    parsedArgs = checked.data;
  }
  return withCore(io, async (core) => {
    try {
      const result = await core.callTool(name, parsedArgs);
      io.out(`${JSON.stringify(result, null, 2)}\n`);
      return result.isError === true ? 1 : 0;
    } catch (error) {
      if (error instanceof HostError) {
        io.err(`switchyard call: ${error.reason}: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  });
}
