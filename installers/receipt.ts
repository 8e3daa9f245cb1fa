import { z } from 'zod';
import { readFileBounded } from '../native-host/shared/bounded-read';
import { errnoCode, isErrno } from '../native-host/shared/errno';
import { BROWSERS } from './browsers';
import {
  BUNDLE_FILE,
  KNOWN_REGISTRY_KEYS,
  MANIFEST_FILE,
  POSIX_LAUNCHER_FILE,
  WINDOWS_LAUNCHER_FILE,
} from './locations';
import { EXTENSION_ID } from './manifest';

/**
 * The install receipt, `$SWITCHYARD_HOME/install.json`: every manifest and registry key an
 * install wrote, the launcher, the node it runs and the recorded login PATH. Uninstall removes
 * exactly what it lists, doctor checks it, and the host reads it at start (PATH and extension
 * ids). It is parsed strictly, and its paths are constrained to the names the installer writes,
 * so an edited receipt cannot make uninstall delete anything else.
 */

export const RECEIPT_FORMAT = 1;
export const MAX_RECEIPT_BYTES = 256 * 1024;

function lastSegment(value: string): string {
  return value.split(/[\\/]/).pop() ?? '';
}

const AbsolutePath = z
  .string()
  .min(2)
  .max(4096)
  .refine((v) => !/[\0\r\n]/.test(v), 'no NUL or line breaks')
  .refine(
    (v) => v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v) || /^[\\/]{2}[^\\/]/.test(v),
    'an absolute path',
  );

const namedPath = (...names: string[]) =>
  AbsolutePath.refine((v) => names.includes(lastSegment(v)), `a file named ${names.join(' or ')}`);

/** Chromium extension ids one manifest allows, as the receipt records them. */
export const MAX_EXTENSION_IDS = 16;

export const RegistrationSchema = z.strictObject({
  browser: z.enum(BROWSERS),
  manifest: namedPath(MANIFEST_FILE),
  registryKey: z
    .string()
    .refine((k) => KNOWN_REGISTRY_KEYS.includes(k), 'a Switchyard registry key')
    .nullable(),
  userDataDir: AbsolutePath.nullable(),
  /** Chromium ids the manifest allows (empty for Firefox, whose manifest names the gecko id). */
  extensionIds: z.array(z.string().regex(EXTENSION_ID)).max(MAX_EXTENSION_IDS),
});
export type Registration = z.infer<typeof RegistrationSchema>;

export const RecordedPathSchema = z.strictObject({
  value: z.string().max(32 * 1024),
  source: z.enum(['login-shell', 'current']),
  shell: z.string().max(4096).nullable(),
});

export const ReceiptSchema = z.strictObject({
  receipt: z.literal(RECEIPT_FORMAT),
  version: z.string().max(64),
  platform: z.enum(['linux', 'darwin', 'win32']),
  node: AbsolutePath,
  launcher: namedPath(POSIX_LAUNCHER_FILE, WINDOWS_LAUNCHER_FILE),
  bundle: namedPath(BUNDLE_FILE),
  loginPath: RecordedPathSchema.nullable(),
  registrations: z.array(RegistrationSchema).max(64),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

/** Stable text: same install, same bytes (a re-install leaves the file unchanged). */
export function receiptText(receipt: Receipt): string {
  return `${JSON.stringify(receipt, null, 2)}\n`;
}

function registrationKey(r: Registration): string {
  return `${r.browser}\n${r.manifest}`;
}

/**
 * The registrations after an install: the previous ones this install did not redo, plus the new
 * ones (a redone registration is replaced whole, never merged), sorted for stable bytes.
 */
export function mergeRegistrations(
  previous: readonly Registration[],
  next: readonly Registration[],
): Registration[] {
  const redone = new Set(next.map(registrationKey));
  return [...previous.filter((r) => !redone.has(registrationKey(r))), ...next].sort((a, b) =>
    registrationKey(a) < registrationKey(b) ? -1 : registrationKey(a) > registrationKey(b) ? 1 : 0,
  );
}

/** Every Chromium extension id some registration allows: the host accepts exactly these too. */
export function receiptExtensionIds(receipt: Receipt): string[] {
  return [...new Set(receipt.registrations.flatMap((r) => r.extensionIds))];
}

export type ReadReceiptResult =
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'ok'; readonly receipt: Receipt };

/** Parses receipt text; `file` only names it in the message. */
export function parseReceipt(text: string, file: string): ReadReceiptResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {
      kind: 'invalid',
      message: `${file} is not valid JSON; run 'switchyard install' again to rewrite it.`,
    };
  }
  const parsed = ReceiptSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where =
      issue === undefined ? '' : ` at ${issue.path.join('.') || '(top)'}: ${issue.message}`;
    return {
      kind: 'invalid',
      message: `${file} is not a Switchyard install receipt${where}; run 'switchyard install' again to rewrite it.`,
    };
  }
  return { kind: 'ok', receipt: parsed.data };
}

export async function readReceipt(file: string): Promise<ReadReceiptResult> {
  let bytes: Uint8Array;
  try {
    bytes = await readFileBounded(file, MAX_RECEIPT_BYTES);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { kind: 'missing' };
    return {
      kind: 'invalid',
      message: `cannot read ${file} (${errnoCode(error) ?? String(error)}); check its permissions.`,
    };
  }
  if (bytes.length > MAX_RECEIPT_BYTES) {
    return { kind: 'invalid', message: `${file} is larger than a receipt can be; remove it.` };
  }
  return parseReceipt(Buffer.from(bytes).toString('utf8'), file);
}
