import { z } from 'zod';
import { RemoteTransportSchema } from './servers';

/**
 * Importing servers from other MCP clients' configuration files (issue 5): the clients the host
 * knows, and what `import/preview` shows and `import/apply` writes. Every string that came from a
 * foreign file has been sanitized by the host (invisible and bidi characters made visible,
 * capped): render it as text.
 */

/** The clients whose configuration files the host can read. */
export const ImportClientSchema = z.enum([
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'codex',
  'zed',
]);
export type ImportClient = z.infer<typeof ImportClientSchema>;

/**
 * What importing one entry would do: `add` a new user-tier server; nothing, because the `same`
 * server is already configured; nothing unless renamed, because a different server already has
 * the name (`conflict`); or nothing at all (`cannot-convert`, with the reason).
 */
export const ImportActionSchema = z.enum(['add', 'same', 'conflict', 'cannot-convert']);
export type ImportAction = z.infer<typeof ImportActionSchema>;

/** SHA-256 (hex) of exactly what an entry would write; `import/apply` must quote it. */
export const ImportDigestSchema = z.string().regex(/^[0-9a-f]{64}$/);

/** A remote server as a card shows it: where it connects and the names of the headers it sends
 * (values are never shown: they often hold tokens). */
export const ImportRemoteSchema = z.object({
  url: z.string(),
  transport: RemoteTransportSchema,
  headerNames: z.array(z.string()),
});
export type ImportRemote = z.infer<typeof ImportRemoteSchema>;

/** A server as a card shows it: its command line with arguments quoted, and its env keys; for a
 * remote server its url (also in `commandLine`, for a card that shows only that), transport and
 * header names. */
export const ImportLaunchSchema = z.object({
  /** Program and arguments on one line, an argument quoted when it holds a space or quote; for a
   * remote server, its url. */
  commandLine: z.string(),
  /** Names of the variables the entry sets (values are never shown: they may be secrets). */
  envKeys: z.array(z.string()),
  cwd: z.string().nullable(),
  /** Set for a remote server, absent for a local one. */
  remote: ImportRemoteSchema.optional(),
});
export type ImportLaunch = z.infer<typeof ImportLaunchSchema>;

export const ImportEntryPreviewSchema = z.object({
  /** The name in the source file (after removing characters a server name cannot have). */
  name: z.string(),
  action: ImportActionSchema,
  /** What would be written; null for `cannot-convert`. */
  launch: ImportLaunchSchema.nullable(),
  /** True when the source client has the server switched off: it is imported switched off. */
  disabled: z.boolean(),
  /** Why it cannot be converted, or why it conflicts; null otherwise. */
  reason: z.string().nullable(),
  /** `same` and `conflict`: the server already configured under `name`, or null when that
   * entry is not one Switchyard can load. */
  existing: ImportLaunchSchema.nullable(),
  /** `conflict`: a free name to import it under instead (the `as` of `import/apply`). */
  suggestedName: z.string().nullable(),
  /** Things the conversion dropped or changed, one sentence each. */
  notes: z.array(z.string()),
  /** `add` and `conflict`: quote it in `import/apply`; null otherwise. */
  digest: ImportDigestSchema.nullable(),
});
export type ImportEntryPreview = z.infer<typeof ImportEntryPreviewSchema>;

export const ImportSourcePreviewSchema = z.object({
  source: ImportClientSchema,
  /** The client's name for people, "Claude Desktop". */
  label: z.string(),
  /** The file read (the client's default location on this OS). */
  path: z.string(),
  /** `missing`: no file there (the client is not installed, or has no servers). */
  state: z.enum(['found', 'missing', 'error']),
  /** `error`: what is wrong with the file, with line and column where there is one. */
  error: z.string().nullable(),
  entries: z.array(ImportEntryPreviewSchema),
  /** Problems that belong to no one entry. */
  warnings: z.array(z.string()),
});
export type ImportSourcePreview = z.infer<typeof ImportSourcePreviewSchema>;

/** One entry to import: the source and name the preview showed, and the digest it quoted. */
export const ImportSelectionSchema = z.object({
  source: ImportClientSchema,
  name: z.string().min(1).max(256),
  /** Write it under this name instead (for a conflict: the preview's `suggestedName`). */
  as: z.string().min(1).max(256).optional(),
  digest: ImportDigestSchema,
});
export type ImportSelection = z.infer<typeof ImportSelectionSchema>;

export const ImportWrittenSchema = z.object({
  source: ImportClientSchema,
  /** The name in the source file. */
  name: z.string(),
  /** The name it was written under in config.json. */
  server: z.string(),
});
export type ImportWritten = z.infer<typeof ImportWrittenSchema>;
