import type { PendingApproval } from '../../messaging/approvals';
import type { ChatMessage, Conversation } from '../../messaging/conversation';
import type { ApprovalRequest } from '../../../protocol/tools';
import type { SessionSnapshot } from '../../messaging/ui-protocol';

/** Test data for the side panel's pure modules. */

export function conversation(messages: ChatMessage[] = [], id = 'c1'): Conversation {
  return { version: 1, id, createdAt: 0, updatedAt: 0, messages };
}

export function approvalRequest(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    requestId: 'r1',
    nonce: 'n1',
    server: 'fs',
    tool: 'write_file',
    exposedName: 'fs__write_file',
    arguments: { path: '/tmp/a.txt', content: 'hello' },
    argumentsHash: 'h',
    warnings: [],
    changes: [],
    expiresAt: 1_000_000,
    ...overrides,
  };
}

export function mcpApproval(
  overrides: Partial<ApprovalRequest> = {},
  ids: { approvalId?: string; runId?: string; callId?: string } = {},
): PendingApproval {
  return {
    approvalId: ids.approvalId ?? 'a1',
    runId: ids.runId ?? 'run1',
    callId: ids.callId ?? 'call1',
    prompt: { kind: 'mcp', request: approvalRequest(overrides) },
  };
}

export function snapshot(overrides: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    conversation: conversation(),
    running: false,
    run: null,
    pendingApprovals: [],
    connection: {
      state: 'connected',
      hostVersion: '0.1.0',
      home: '/h',
      configWarnings: [],
      runtime: null,
    },
    provider: { kind: 'openai', model: 'gpt-test', hasApiKey: true },
    autopilot: false,
    context: null,
    profile: null,
    profileSettled: true,
    saveProblem: null,
    ...overrides,
  };
}
