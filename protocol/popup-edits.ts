import { z } from 'zod';
import { ServerSummarySchema } from './servers';
import { ToolPolicyStateSchema } from './tools';

/**
 * The popup's edits (issue 14): a local server's launch rewritten (`servers/update`), and a bulk
 * policy change over a filtered tool list (`policy/setMany`). Part of the method table in
 * methods.ts, documented in docs/protocol.md.
 */

// A local server's launch fields as the user types them: `servers/add` and `servers/update`
// check them alike.
export const CommandSchema = z.string().min(1).max(4096);
export const ArgsSchema = z.array(z.string().max(32_767)).max(256);
export const EnvKeySchema = z.string().min(1).max(256);
export const EnvValueSchema = z.string().max(32_767);
export const CwdSchema = z.string().min(1).max(4096);

export const popupEditMethods = {
  'servers/update': {
    // The popup's Edit of a local server in config.json: the whole launch as it should be. Unlike
    // `servers/add`, nothing is approved: a launch that differs from the approved one waits at the
    // gate, its card naming what changed (docs/security.md). Env values are secrets the page is
    // never sent, so `null` keeps the value the entry has for that key; a key left out is removed.
    params: z.strictObject({
      server: z.string().min(1).max(256),
      command: CommandSchema,
      args: ArgsSchema,
      env: z.record(EnvKeySchema, EnvValueSchema.nullable()),
      /** null: no `cwd` (the host's own folder rules apply). */
      cwd: CwdSchema.nullable(),
    }),
    result: z.object({ server: ServerSummarySchema }),
  },
  'policy/setMany': {
    // The popup's bulk actions over a filtered tool list ("allow every read-only tool"): one
    // write of config.json for all of them, applied as `policy/set` would apply each in turn.
    params: z.object({
      rules: z
        .array(
          z.object({
            tool: z.string().min(1).max(256),
            policy: z.enum(['allow', 'ask', 'deny']).nullable(),
          }),
        )
        .min(1)
        .max(1000),
    }),
    result: z.object({
      rules: z.record(z.string(), z.enum(['allow', 'ask', 'deny'])),
      /** Each named tool's effective policy afterwards (null for a glob or a tool not listed). */
      effective: z.record(z.string(), ToolPolicyStateSchema.nullable()),
    }),
  },
} as const;
