import { useEffect, useId, useRef, useState } from 'react';
import type { ApprovalDecision } from '../../messaging/approvals';
import type { PendingApproval } from '../../messaging/approvals';
import type { ChatMessage } from '../../messaging/conversation';
import type { ToolChange } from '../../../protocol/tools';
import { Button } from '../common/Button';
import { JsonView } from '../common/JsonView';
import { UntrustedText } from '../common/UntrustedText';
import { useAsyncAction } from '../common/use-async-action';
import { VisibleText } from '../common/VisibleText';
import {
  CANCEL_ALWAYS_LABEL,
  CONFIRM_ALWAYS_LABEL,
  approvalChoices,
  approvalView,
  expiryText,
} from './approval-view';
import { CARD_FOCUS_ATTRIBUTE } from '../common/use-card-focus';

export interface ApprovalCardProps {
  readonly pending: PendingApproval;
  /** The conversation so far: untrusted content in it is a warning on the card. */
  readonly messages: readonly ChatMessage[];
  readonly onResolve: (decision: ApprovalDecision) => Promise<void>;
  readonly now?: number;
  /**
   * Its place among the waiting cards: a card that moves up when the one above it is answered
   * holds its answers again, as the pointer that answered that one is now over them.
   */
  readonly position?: number;
}

/**
 * How long a card's answers are on screen (or in a new place) before they take effect: the second
 * click of a double-click on the card before (or a click already on its way) lands where this
 * card's first answer now is, and must not answer it. Chrome's and Firefox's permission prompts
 * hold their buttons the same way. Escape (which denies) works at once.
 */
export const ANSWER_DELAY_MS = 500;

/**
 * Counts the times the page was shown again after being hidden (the side panel closed and opened,
 * its tab or window brought back): a card that reappears under a pointer already on its way is as
 * new to the user as one that just appeared. Focus alone does not count: the click that focuses
 * the panel is the answer itself.
 */
function useShownAgain(): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    let hidden = document.visibilityState === 'hidden';
    const onChange = (): void => {
      if (document.visibilityState === 'hidden') {
        hidden = true;
      } else if (hidden) {
        hidden = false;
        setShown((n) => n + 1);
      }
    };
    document.addEventListener('visibilitychange', onChange);
    return () => {
      document.removeEventListener('visibilitychange', onChange);
    };
  }, []);
  return shown;
}

/**
 * False until `delayMs` after the first render, after each change of `step`, and after the page
 * is shown again (useShownAgain).
 */
function useArmedAfter(delayMs: number, stepOfCard: string): boolean {
  const step = `${stepOfCard}#${String(useShownAgain())}`;
  const [armedStep, setArmedStep] = useState<{ step: unknown } | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      setArmedStep({ step });
    }, delayMs);
    return () => {
      clearTimeout(timer);
    };
  }, [delayMs, step]);
  return armedStep !== null && armedStep.step === step;
}

const CHANGE_FIELD_LABELS: Readonly<Record<ToolChange['field'], string>> = {
  title: 'Title',
  description: 'Description',
  inputSchema: 'Input schema',
  annotations: 'Annotations',
};

/**
 * One tool call waiting for the user (design D8): who asks to run what, the exact arguments, every
 * reason to look twice, and three answers. "Always allow this tool" writes the allow-list through
 * the host; it never covers other tools, and a destructive tool still asks. For a tool that
 * claims to be destructive, Deny comes first and "Always allow" asks once more (approvalChoices).
 * Escape anywhere on the card denies, and the card says so.
 */
export function ApprovalCard({
  pending,
  messages,
  onResolve,
  now = Date.now(),
  position = 0,
}: ApprovalCardProps) {
  const headingId = useId();
  const confirmId = useId();
  const { busy, error, run } = useAsyncAction();
  const [confirming, setConfirming] = useState(false);
  const confirmText = useRef<HTMLParagraphElement>(null);
  const card = useRef<HTMLElement>(null);
  /** Set by "No, go back": focus returns to the button that opened the second step. */
  const backToAlways = useRef(false);
  const view = approvalView(pending, messages);
  const choices = approvalChoices(view);
  // The answers (and the second step's) are held for a moment after they appear.
  const armed = useArmedAfter(ANSWER_DELAY_MS, `${String(confirming)}@${String(position)}`);
  const held = armed ? undefined : true;
  const decide = (decision: ApprovalDecision): void => {
    setConfirming(false);
    run(() => onResolve(decision));
  };
  useEffect(() => {
    // The second step replaces the buttons the user was on: read its question out first.
    if (confirming) {
      confirmText.current?.focus();
    } else if (backToAlways.current) {
      backToAlways.current = false;
      const always = card.current?.querySelector('[data-decision="always"]');
      if (always instanceof HTMLElement) always.focus();
    }
  }, [confirming]);
  return (
    <article
      ref={card}
      className={`sy-card sy-approval${view.warnings.some((w) => w.tone === 'danger') ? ' sy-approval--danger' : ''}`}
      aria-labelledby={headingId}
      data-card-id={pending.approvalId}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.nativeEvent.isComposing || busy) return;
        event.preventDefault();
        decide('deny');
      }}
    >
      {/*
        A new card focuses its heading, not its default button (use-card-focus.ts). A screen
        reader then announces "Allow <tool>?" and reads on into the server, the warnings and the
        arguments, which is what must be heard before answering; a focused button would be
        announced alone ("Allow once, button"), inviting an answer to an unread request, and an
        Enter still held from sending the message could press it.
      */}
      <h3
        className="sy-card__title sy-card__focus"
        id={headingId}
        tabIndex={-1}
        {...{ [CARD_FOCUS_ATTRIBUTE]: '' }}
      >
        Allow <code>{view.exposedName}</code>?
      </h3>
      {pending.fromApp === undefined ? null : (
        <p className="sy-approval__from">
          From the <VisibleText text={pending.fromApp} /> app, not the model: the app shown in the
          chat asks for this call.
        </p>
      )}
      <dl className="sy-fields">
        {view.server === null ? (
          <>
            <dt>Tool</dt>
            <dd>
              Switchyard’s browser tool <code>{view.tool}</code>
              {view.description === null ? null : (
                <span className="sy-field-note"> — {view.description}</span>
              )}
            </dd>
          </>
        ) : (
          <>
            <dt>Server</dt>
            <dd>
              <code>
                <VisibleText text={view.server} edgeSpaces />
              </code>
            </dd>
            <dt>Tool</dt>
            <dd>
              <code>
                <VisibleText text={view.tool} edgeSpaces />
              </code>
              <span className="sy-field-note"> (the server’s name)</span>
            </dd>
            <dt>Called as</dt>
            <dd>
              <code>{view.exposedName}</code>
            </dd>
          </>
        )}
      </dl>

      {view.warnings.length === 0 ? null : (
        <ul className="sy-warnings" aria-label="Warnings">
          {view.warnings.map((warning, index) => (
            <li
              key={index}
              className={warning.tone === 'danger' ? 'sy-warning sy-warning--danger' : 'sy-warning'}
            >
              <UntrustedText text={warning.text} inline />
            </li>
          ))}
        </ul>
      )}

      {view.changes.length === 0 ? null : (
        <section className="sy-changes" aria-label="How the tool changed since you approved it">
          <h4>Changed since you approved it</h4>
          <ul>
            {view.changes.map((change, index) => (
              <li key={index}>
                <p className="sy-changes__label">{CHANGE_FIELD_LABELS[change.field]}</p>
                <p className="sy-changes__tag">before</p>
                <UntrustedText text={change.before} maxChars={1500} />
                <p className="sy-changes__tag">after</p>
                <UntrustedText text={change.after} maxChars={1500} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <div>
        <p className="sy-tool__heading">Arguments</p>
        <JsonView value={view.arguments} label={`Arguments for ${view.exposedName}`} />
      </div>

      {view.annotations.length === 0 ? null : (
        <details className="sy-annotations">
          <summary>The server’s claims about this tool (not verified)</summary>
          <dl className="sy-fields">
            {view.annotations.map((row) => (
              <div key={row.label} className="sy-fields__row">
                <dt>{row.label}</dt>
                <dd>
                  <UntrustedText text={row.value} inline />
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}

      {error === null ? null : (
        <p className="sy-error-text" role="alert">
          {error}
        </p>
      )}
      <div className="sy-card__actions sy-approval__actions">
        {confirming && choices.confirmAlways !== null ? (
          <div className="sy-approval__confirm" role="group" aria-labelledby={confirmId}>
            <p id={confirmId} ref={confirmText} tabIndex={-1} className="sy-approval__question">
              {choices.confirmAlways}
            </p>
            <div className="sy-approval__buttons">
              <Button
                variant="primary"
                disabled={busy}
                aria-disabled={held}
                onClick={() => {
                  if (!armed) return;
                  backToAlways.current = true;
                  setConfirming(false);
                }}
              >
                {CANCEL_ALWAYS_LABEL}
              </Button>
              <Button
                variant="danger"
                disabled={busy}
                aria-disabled={held}
                onClick={() => {
                  if (!armed) return;
                  decide('always');
                }}
              >
                {CONFIRM_ALWAYS_LABEL}
              </Button>
            </div>
          </div>
        ) : (
          <div className="sy-approval__buttons">
            {choices.buttons.map((button) => (
              <Button
                key={button.decision}
                variant={button.variant}
                disabled={busy}
                aria-disabled={held}
                data-decision={button.decision}
                aria-keyshortcuts={button.decision === 'deny' ? 'Escape' : undefined}
                onClick={() => {
                  if (!armed) return;
                  if (button.decision === 'always' && choices.confirmAlways !== null) {
                    setConfirming(true);
                  } else {
                    decide(button.decision);
                  }
                }}
              >
                {button.label}
              </Button>
            ))}
          </div>
        )}
        <p className="sy-hint sy-approval__keys">
          Esc denies
          {view.expiresAt === null ? '' : ` · This request ${expiryText(view.expiresAt, now)}`}.
        </p>
      </div>
    </article>
  );
}
