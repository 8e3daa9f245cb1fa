import { useId, useState } from 'react';
import { browser } from 'wxt/browser';
import type {
  ElicitationAction,
  ElicitationField,
  ElicitationRequest,
  ElicitationValue,
} from '../../../protocol/elicitation';
import { Button } from '../common/Button';
import { pageClient } from '../common/page-client';
import { safeLink } from '../common/safe-link';
import { UntrustedText } from '../common/UntrustedText';
import { useAsyncAction } from '../common/use-async-action';
import { VisibleText } from '../common/VisibleText';
import {
  expiresIn,
  fieldLabel,
  initialDraft,
  questionHeading,
  submit,
  textInputType,
  type Draft,
  type DraftValue,
} from './question-form';
import { CARD_FOCUS_ATTRIBUTE } from '../common/use-card-focus';

export interface QuestionCardProps {
  readonly request: ElicitationRequest;
  readonly now?: number;
}

async function respond(
  id: string,
  action: ElicitationAction,
  content?: Record<string, ElicitationValue>,
): Promise<void> {
  await pageClient().host('elicitation/respond', {
    id,
    action,
    ...(content === undefined ? {} : { content }),
  });
}

/**
 * A server's question to the user (issue 12): who asks, what it says (the server's words, shown
 * as untrusted text), and a form generated from what it asked for, or the origin of a page it
 * wants opened. Accept sends only values the form's own check passes; Decline tells the server
 * no; Cancel (or Escape, as the card says) dismisses without an answer. A page is opened only
 * after the user agrees. The card takes focus when it appears (QuestionSection, use-card-focus.ts).
 */
export function QuestionCard({ request, now = Date.now() }: QuestionCardProps) {
  const headingId = useId();
  const { busy, error, run } = useAsyncAction();
  const [draft, setDraft] = useState<Draft>(() =>
    request.mode === 'form' ? initialDraft(request.fields) : {},
  );
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({});

  const answer = (action: ElicitationAction): void => {
    run(() => respond(request.id, action));
  };
  const accept = (): void => {
    if (request.mode === 'url') {
      const link = safeLink(request.url);
      if (link === null) return;
      run(async () => {
        await browser.tabs.create({ url: link.href });
        await respond(request.id, 'accept');
      });
      return;
    }
    const submission = submit(request.fields, draft);
    if (!submission.ok) {
      setProblems(submission.problems);
      return;
    }
    setProblems({});
    run(() => respond(request.id, 'accept', submission.content));
  };
  const change = (name: string, value: DraftValue): void => {
    setDraft((previous) => ({ ...previous, [name]: value }));
  };

  return (
    // The whole card takes focus: a screen reader reads the server's question and the form's
    // fields in one go, and Tab then starts at the first field.
    <article
      tabIndex={-1}
      className="sy-card sy-question"
      aria-labelledby={headingId}
      data-card-id={request.id}
      {...{ [CARD_FOCUS_ATTRIBUTE]: '' }}
      onKeyDown={(event) => {
        // An Escape while an input method composes belongs to the input method.
        if (event.key !== 'Escape' || event.nativeEvent.isComposing || busy) return;
        event.preventDefault();
        answer('cancel');
      }}
    >
      <h3 className="sy-card__title" id={headingId}>
        <VisibleText text={questionHeading(request)} edgeSpaces />
      </h3>
      <UntrustedText text={request.message} />
      {request.mode === 'url' ? (
        <UrlQuestion request={request} />
      ) : (
        <form
          className="sy-question__form"
          onSubmit={(event) => {
            event.preventDefault();
            accept();
          }}
          noValidate
        >
          {request.fields.map((field) => (
            <FieldInput
              key={field.name}
              field={field}
              value={draft[field.name]}
              problem={problems[field.name]}
              onChange={(value) => {
                change(field.name, value);
              }}
            />
          ))}
          {/* Enter in a text field submits the form, as Accept does. */}
          <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        </form>
      )}
      {error === null ? null : (
        <p className="sy-error-text" role="alert">
          {error}
        </p>
      )}
      <p className="sy-field-note">
        Only <code>{request.server}</code> sees your answer. {expiresIn(request.expiresAt, now)}.
      </p>
      <div className="sy-card__actions">
        <Button variant="primary" disabled={busy} onClick={accept}>
          {request.mode === 'url' ? `Open ${request.origin}` : 'Accept'}
        </Button>
        <Button
          disabled={busy}
          onClick={() => {
            answer('decline');
          }}
        >
          Decline
        </Button>
        <Button
          variant="quiet"
          disabled={busy}
          aria-keyshortcuts="Escape"
          onClick={() => {
            answer('cancel');
          }}
        >
          Cancel
        </Button>
        <span className="sy-hint sy-question__keys">Esc cancels</span>
      </div>
    </article>
  );
}

function UrlQuestion({
  request,
}: {
  readonly request: Extract<ElicitationRequest, { mode: 'url' }>;
}) {
  return (
    <dl className="sy-fields">
      <dt>Opens</dt>
      <dd>
        <strong>{request.origin}</strong>
      </dd>
      <dt>Full address</dt>
      <dd>
        <code className="sy-question__url">
          <VisibleText text={request.url} />
        </code>
      </dd>
    </dl>
  );
}

interface FieldInputProps {
  readonly field: ElicitationField;
  readonly value: DraftValue | undefined;
  readonly problem: string | undefined;
  readonly onChange: (value: DraftValue) => void;
}

function FieldInput({ field, value, problem, onChange }: FieldInputProps) {
  const id = useId();
  const describedBy = `${id}-note`;
  const label = (
    <>
      <VisibleText text={fieldLabel(field)} />
      {field.required ? <span className="sy-question__required"> (required)</span> : null}
    </>
  );
  const note = (
    <p className="sy-field-note" id={describedBy}>
      {field.description === undefined ? null : <VisibleText text={field.description} />}
      {problem === undefined ? null : (
        <span className="sy-error-text" role="alert">
          {' '}
          {fieldLabel(field)} {problem}.
        </span>
      )}
    </p>
  );
  const invalid = problem !== undefined;
  switch (field.kind) {
    case 'boolean':
      return (
        <div className="sy-question__field sy-question__field--check">
          <label htmlFor={id}>
            <input
              id={id}
              type="checkbox"
              checked={value === true}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(event) => {
                onChange(event.target.checked);
              }}
            />{' '}
            {label}
          </label>
          {note}
        </div>
      );
    case 'choice':
      return (
        <div className="sy-question__field">
          <label htmlFor={id}>{label}</label>
          <select
            id={id}
            value={typeof value === 'string' ? value : ''}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(event) => {
              onChange(event.target.value);
            }}
          >
            <option value="">Choose…</option>
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {note}
        </div>
      );
    case 'choices': {
      const chosen: readonly string[] = typeof value === 'object' ? value : [];
      return (
        <fieldset className="sy-question__field" aria-describedby={describedBy}>
          <legend>{label}</legend>
          {field.options.map((option) => (
            <label key={option.value} className="sy-question__option">
              <input
                type="checkbox"
                checked={chosen.includes(option.value)}
                onChange={(event) => {
                  onChange(
                    event.target.checked
                      ? [...chosen, option.value]
                      : chosen.filter((v) => v !== option.value),
                  );
                }}
              />{' '}
              {option.label}
            </label>
          ))}
          {note}
        </fieldset>
      );
    }
    case 'number':
    case 'text':
      return (
        <div className="sy-question__field">
          <label htmlFor={id}>{label}</label>
          <input
            id={id}
            type={field.kind === 'number' ? 'text' : textInputType(field)}
            inputMode={
              field.kind === 'number' ? (field.integer ? 'numeric' : 'decimal') : undefined
            }
            value={typeof value === 'string' ? value : ''}
            required={field.required}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(event) => {
              onChange(event.target.value);
            }}
          />
          {note}
        </div>
      );
  }
}
