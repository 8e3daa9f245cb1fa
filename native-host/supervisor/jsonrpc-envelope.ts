import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * Is a decoded line from a server's stdout a JSON-RPC 2.0 message, by the SDK's own definition
 * (`JSONRPCMessageSchema`: a strict request, notification, result or error envelope)? Written
 * by hand because it runs on every line a server writes and the SDK checks each message again:
 * its Protocol classifies every incoming message with the same schemas (`isJSONRPCRequest`,
 * `isJSONRPCResultResponse`, ...) before anything reads it, which stays the one full validation.
 * This check only has to sort the lines the SDK would reject into noise, reported by size and
 * never quoted (design D9), so it agrees with the schema on every value
 * (jsonrpc-envelope.test.ts holds the two side by side over generated hostile values). The
 * zod union it replaces cost about a fifth of the host's JS time on a relayed call and built a
 * copy of every message (issue 15).
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (!isRecord(value) || value['jsonrpc'] !== '2.0') return false;
  if ('method' in value) {
    if (typeof value['method'] !== 'string' || !validParams(value['params'])) return false;
    return 'id' in value
      ? isRequestId(value['id']) && onlyKeys(value, REQUEST_KEYS)
      : onlyKeys(value, NOTIFICATION_KEYS);
  }
  if ('result' in value) {
    return isRequestId(value['id']) && validResult(value['result']) && onlyKeys(value, RESULT_KEYS);
  }
  if ('error' in value) {
    return (
      (value['id'] === undefined || isRequestId(value['id'])) &&
      validError(value['error']) &&
      onlyKeys(value, ERROR_KEYS)
    );
  }
  return false;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_KEYS = new Set(['jsonrpc', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);
const ERROR_KEYS = new Set(['jsonrpc', 'id', 'error']);
const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The SDK's strict objects: no key outside the envelope's own. */
function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** `z.union([z.string(), z.number().int()])`: zod's int is a safe integer. */
function isRequestId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** Request and notification params: an object, whose `_meta` (if any) is RequestMetaSchema. */
function validParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isRecord(params)) return false;
  const meta = params['_meta'];
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  const token = meta['progressToken'];
  if (token !== undefined && !isRequestId(token)) return false;
  const task = meta[RELATED_TASK_META_KEY];
  return task === undefined || (isRecord(task) && typeof task['taskId'] === 'string');
}

/** ResultSchema: an object whose `_meta` (if any) is an object (its serverInfo is `.catch`ed). */
function validResult(result: unknown): boolean {
  if (!isRecord(result)) return false;
  const meta = result['_meta'];
  return meta === undefined || isRecord(meta);
}

function validError(error: unknown): boolean {
  return (
    isRecord(error) && Number.isSafeInteger(error['code']) && typeof error['message'] === 'string'
  );
}
