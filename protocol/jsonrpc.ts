import { z } from 'zod';

/**
 * JSON-RPC 2.0 envelopes carried inside native-messaging frames. Every frame is parsed with these
 * schemas before anything reads it: a frame is hostile until it has passed here.
 */

export const RequestIdSchema = z.union([z.string().max(128), z.number().int()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  method: z.string().min(1).max(128),
  params: z.unknown().optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

export const JsonRpcNotificationSchema = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1).max(128),
  params: z.unknown().optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

export const JsonRpcErrorObjectSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObjectSchema>;

export const JsonRpcSuccessSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema,
  result: z.unknown(),
});
export type JsonRpcSuccess = z.infer<typeof JsonRpcSuccessSchema>;

export const JsonRpcFailureSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: RequestIdSchema.nullable(),
  error: JsonRpcErrorObjectSchema,
});
export type JsonRpcFailure = z.infer<typeof JsonRpcFailureSchema>;

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Classifies an already-decoded JSON value; `undefined` when it is no JSON-RPC 2.0 message. */
export function parseJsonRpcMessage(value: unknown): JsonRpcMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const hasId = 'id' in value;
  const hasMethod = 'method' in value;
  if (hasMethod && hasId) return JsonRpcRequestSchema.safeParse(value).data;
  if (hasMethod) return JsonRpcNotificationSchema.safeParse(value).data;
  if ('error' in value) return JsonRpcFailureSchema.safeParse(value).data;
  if ('result' in value) return JsonRpcSuccessSchema.safeParse(value).data;
  return undefined;
}

/** Standard JSON-RPC error codes, plus one application code for all typed Switchyard errors. */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Every error that carries a `data.reason` from ErrorReason. */
  HostError: -32000,
} as const;
