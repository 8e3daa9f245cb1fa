import type { z } from 'zod';

/** Shared by the config schemas: how their messages read. */

/** `__proto__` as an object key silently replaces a prototype instead of adding a property. */
export const RESERVED_KEY = '__proto__';

/** Error map for z.record: `typeMessage` when the value is not an object, and the key's own
 * message (instead of zod's "Invalid key in record") when a key is bad. */
export const recordErrors =
  (typeMessage: string) =>
  (issue: z.core.$ZodRawIssue): string | undefined => {
    if (issue.code === 'invalid_type') return typeMessage;
    if (issue.code === 'invalid_key') return issue.issues[0]?.message;
    return undefined;
  };
