import { randomUUID } from 'node:crypto';
import type { QuestionDecision } from '../../protocol/activity';
import {
  checkAnswer,
  type ElicitationAction,
  type ElicitationRequest,
  type ElicitationSettledBy,
  type ElicitationValue,
} from '../../protocol/elicitation';
import { readElicitation } from '../mcp/elicitation-form';
import type { ElicitationAnswer } from '../mcp/runtime-client';
import type { AuditEntry } from '../audit/audit-log';
import { canonicalJson, sha256Hex } from '../shared/canonical-json';
import { HostError } from '../shared/host-error';
import type { LogLevel } from './core-types';

/**
 * The questions servers are waiting on (issue 12): each `elicitation/create` becomes a card the
 * extension shows, and stays pending until the user answers it, the server gives up (its request
 * is cancelled), or `timeoutMs` passes (9 minutes; then it is cancelled). Nothing is answered for the user:
 * with no extension to ask (the CLI) it is declined at once, and the extension itself declines
 * with `unanswered: 'no-page'` when no side panel is open. An accepted form is checked against its
 * fields again here, whatever the page checked. Every question is recorded in the audit log
 * (`question`: the server, how it ended and who ended it, how long it was open, and the size and
 * hash of an accepted answer, never its values).
 */

/** Under the extension's own 10-minute net for a `tools/call`, so the host, not the net, ends it. */
export const ELICITATION_TIMEOUT_MS = 9 * 60_000;

/**
 * Most questions one server may have open at once. A person answers them one by one; without a
 * bound a server asking in a loop (or one `input_required` result with thousands of requests)
 * held a card, a 9-minute timer and a frame to the browser for each, without end.
 */
export const MAX_OPEN_QUESTIONS_PER_SERVER = 8;

export interface ElicitationDeskOptions {
  /** Shows a new card (`notifications/elicitation/requested`); absent: nobody can be asked. */
  readonly announce?: (request: ElicitationRequest) => void;
  /** A card ended (`notifications/elicitation/settled`). */
  readonly settled?: (id: string, action: ElicitationAction, by: ElicitationSettledBy) => void;
  readonly log: (level: LogLevel, message: string, server: string) => void;
  /** The audit log's `append`; absent: nothing is recorded. */
  readonly record?: (entry: AuditEntry) => void;
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

interface Pending {
  readonly request: ElicitationRequest;
  readonly finish: (
    answer: ElicitationAnswer,
    action: ElicitationAction,
    by: ElicitationSettledBy,
  ) => void;
}

/** The audit decision for a card that ended with `action`, ended by `by`. */
export function questionDecision(
  action: ElicitationAction,
  by: ElicitationSettledBy,
): QuestionDecision {
  switch (by) {
    case 'user':
      return action === 'accept' ? 'accepted' : action === 'decline' ? 'declined' : 'cancelled';
    case 'no-page':
      return 'no-page';
    case 'timeout':
      return 'timed-out';
    case 'server':
      return 'withdrawn';
    case 'host':
      return 'shutdown';
  }
}

export class ElicitationDesk {
  private readonly open = new Map<string, Pending>();

  constructor(private readonly options: ElicitationDeskOptions) {}

  /** The cards waiting for the user, oldest first. */
  pending(): ElicitationRequest[] {
    return [...this.open.values()].map((p) => p.request);
  }

  /**
   * One server question: resolves with what goes back to the server. Throws (the server gets an
   * error answer) when the request cannot be shown as asked.
   */
  ask(server: string, params: unknown, signal: AbortSignal): Promise<ElicitationAnswer> {
    const read = readElicitation(params);
    if (!read.ok) {
      this.options.record?.({ event: 'question', server, decision: 'refused' });
      this.options.log('warning', `refused a question from the server: ${read.problem}`, server);
      return Promise.reject(new Error(`Switchyard cannot show this request: ${read.problem}.`));
    }
    if (this.openFor(server) >= MAX_OPEN_QUESTIONS_PER_SERVER) {
      this.options.record?.({ event: 'question', server, decision: 'refused' });
      this.options.log(
        'warning',
        `refused a question from the server: it already has ${MAX_OPEN_QUESTIONS_PER_SERVER} waiting for the user`,
        server,
      );
      return Promise.reject(
        new Error(
          `Switchyard cannot show this request: ${MAX_OPEN_QUESTIONS_PER_SERVER} questions from this server are already waiting for the user.`,
        ),
      );
    }
    const announce = this.options.announce;
    if (announce === undefined) {
      this.options.record?.({ event: 'question', server, decision: 'no-browser' });
      this.options.log(
        'info',
        'declined a question from the server: there is no browser to ask (the command line cannot answer it)',
        server,
      );
      return Promise.resolve({ action: 'decline' });
    }
    const now = this.options.now ?? Date.now;
    const askedAt = now();
    const timeoutMs = this.options.timeoutMs ?? ELICITATION_TIMEOUT_MS;
    const id = randomUUID();
    const { ask } = read;
    const base = { id, server, message: ask.message, expiresAt: askedAt + timeoutMs };
    const request: ElicitationRequest =
      ask.mode === 'form'
        ? { ...base, mode: 'form', fields: ask.fields }
        : { ...base, mode: 'url', url: ask.url, origin: ask.origin };
    return new Promise<ElicitationAnswer>((resolve) => {
      const onAbort = (): void => {
        finish({ action: 'cancel' }, 'cancel', 'server');
      };
      const timer = setTimeout(() => {
        this.options.log(
          'info',
          `nobody answered the server's question in ${timeoutMs / 1000} s: cancelled`,
          server,
        );
        finish({ action: 'cancel' }, 'cancel', 'timeout');
      }, timeoutMs);
      timer.unref();
      const finish = (
        answer: ElicitationAnswer,
        action: ElicitationAction,
        by: ElicitationSettledBy,
      ): void => {
        if (!this.open.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.options.settled?.(id, action, by);
        const answerText =
          answer.action === 'accept' && answer.content !== undefined
            ? canonicalJson(answer.content)
            : undefined;
        this.options.record?.({
          event: 'question',
          server,
          decision: questionDecision(action, by),
          durationMs: Math.max(0, Math.round(now() - askedAt)),
          ...(answerText === undefined
            ? {}
            : {
                resultBytes: Buffer.byteLength(answerText, 'utf8'),
                resultHash: sha256Hex(answerText),
              }),
        });
        resolve(answer);
      };
      if (signal.aborted) {
        resolve({ action: 'cancel' });
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.open.set(id, { request, finish });
      announce(request);
    });
  }

  /**
   * The user's answer to a card. An accepted form must pass `checkAnswer` (then the card stays
   * open: fix and send again); a card no longer pending is `not-pending`.
   */
  respond(
    id: string,
    action: ElicitationAction,
    content: Record<string, ElicitationValue> | undefined,
    unanswered?: 'no-page',
  ): void {
    const pending = this.open.get(id);
    if (pending === undefined) {
      throw new HostError(
        'not-pending',
        'That question is no longer waiting for an answer: the server gave up, or it timed out.',
        { id },
      );
    }
    const { request } = pending;
    if (unanswered === 'no-page') {
      this.options.log(
        'info',
        "declined a question from the server: no side panel was open to ask it (open Switchyard's side panel and try again)",
        request.server,
      );
      pending.finish({ action: 'decline' }, 'decline', 'no-page');
      return;
    }
    if (action !== 'accept') {
      pending.finish({ action }, action, 'user');
      return;
    }
    if (request.mode === 'url') {
      pending.finish({ action: 'accept' }, 'accept', 'user');
      return;
    }
    const check = checkAnswer(request.fields, content ?? {});
    if (!check.ok) {
      throw new HostError(
        'invalid-params',
        `The answer does not fit the form: ${check.issues.map((i) => `'${i.field}' ${i.message}`).join('; ')}.`,
        { issues: check.issues.map((i) => ({ path: `content.${i.field}`, message: i.message })) },
      );
    }
    pending.finish({ action: 'accept', content: check.content }, 'accept', 'user');
  }

  /**
   * Cancels a server's open cards: the requests they were asked during have all ended (the call
   * was cancelled or failed), so no answer could still reach anything waiting for it.
   */
  cancelFor(server: string): void {
    for (const pending of [...this.open.values()]) {
      if (pending.request.server === server)
        pending.finish({ action: 'cancel' }, 'cancel', 'server');
    }
  }

  private openFor(server: string): number {
    let count = 0;
    for (const pending of this.open.values()) if (pending.request.server === server) count += 1;
    return count;
  }

  /** Cancels every open card (the host is shutting down). */
  cancelAll(): void {
    for (const pending of [...this.open.values()]) {
      pending.finish({ action: 'cancel' }, 'cancel', 'host');
    }
  }
}
