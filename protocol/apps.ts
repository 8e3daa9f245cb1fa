import { z } from 'zod';
import { MAX_CSP_ORIGINS, type AppCsp } from './app-csp';
import { ProfileIdSchema } from './profiles';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, issue 12 part 4): a tool whose definition
 * links a `ui://` resource is shown with that resource, an HTML page, rendered in a sandboxed
 * frame of the side panel. What the host tells the extension about a tool's app, what `apps/read`
 * answers, and the pure rules both sides apply to what a server declares (its CSP origins).
 *
 * Everything here that came from a server is untrusted: the HTML is code for the sandbox and is
 * never shown to the model, and the declared CSP origins are checked one by one before they get
 * anywhere near a policy string (an origin is the one thing a server can write into our CSP).
 */

/** The MIME type of an MCP App's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The extension key a client declares in its capabilities to say it renders apps. */
export const APPS_EXTENSION_KEY = 'io.modelcontextprotocol/ui';

/** Largest app page the host relays, in UTF-8 bytes (server-pdf's viewer is 4.3 MB). */
export const MAX_APP_HTML_BYTES = 10 * 1024 * 1024;

/** Longest `ui://` URI accepted. */
export const MAX_APP_URI_CHARS = 2_048;

/** Who may call a tool (MCP Apps `_meta.ui.visibility`); absent means both. */
export const ToolVisibilitySchema = z.enum(['model', 'app']);
export type ToolVisibility = z.infer<typeof ToolVisibilitySchema>;

/** What a tool listing says about a tool's app. */
export const ToolUiSchema = z.object({
  /** The app page shown with this tool's results; absent when the tool has none (or apps are off). */
  resourceUri: z.string().min(1).max(MAX_APP_URI_CHARS).optional(),
  /** Who may call it; a tool the model may not call is never in the model's listing. */
  visibility: z.array(ToolVisibilitySchema).max(2),
});
export type ToolUi = z.infer<typeof ToolUiSchema>;

/** Whether `uri` is a `ui://` URI the host will read for an app. */
export function isAppUri(uri: string): boolean {
  return (
    uri.length <= MAX_APP_URI_CHARS &&
    /^ui:\/\/[^\s]+$/u.test(uri) &&
    // No control characters or quotes: the URI is shown and logged.
    !Array.from(uri).some(
      (c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || `"'<>\\`.includes(c),
    )
  );
}

/** The CSP lists of an app page, as `apps/read` answers them (the rules live in app-csp.ts). */
export const AppCspSchema = z.object({
  connectDomains: z.array(z.string()).max(MAX_CSP_ORIGINS),
  resourceDomains: z.array(z.string()).max(MAX_CSP_ORIGINS),
}) satisfies z.ZodType<AppCsp>;

/** The permissions an app may ask for (MCP Apps `_meta.ui.permissions`); none is granted. */
export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/** One part of an app page as `apps/read` answers it. */
export const AppReadResultSchema = z.object({
  server: z.string(),
  uri: z.string(),
  /** SHA-256 of the whole page: every part of one read carries the same one. */
  hash: z.string(),
  /** UTF-8 bytes of the whole page. */
  bytes: z.number().int().nonnegative(),
  part: z.number().int().nonnegative(),
  parts: z.number().int().positive(),
  /** This part of the page's text (parts join to the page). */
  text: z.string(),
  csp: AppCspSchema,
  /** What the server declared and the host did not keep (shown with the app). */
  ignored: z.array(z.string()).max(256),
  /** Permissions the page asked for; none is granted. */
  permissions: z.array(z.enum(APP_PERMISSIONS)),
  prefersBorder: z.boolean().optional(),
});
export type AppReadResult = z.infer<typeof AppReadResultSchema>;

/** The host methods of MCP Apps (merged into the method table in methods.ts). */
export const appMethods = {
  'apps/read': {
    params: z.object({
      server: z.string().min(1).max(256),
      uri: z.string().min(1).max(MAX_APP_URI_CHARS).refine(isAppUri, { error: 'not a ui:// URI' }),
      /** Which part of the page; 0 (the default) reads the page afresh. */
      part: z.number().int().nonnegative().max(10_000).optional(),
      profile: ProfileIdSchema.optional(),
    }),
    result: AppReadResultSchema,
  },
} as const;
