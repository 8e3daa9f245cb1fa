import {
  checkAnswer,
  initialValues,
  type AnswerIssue,
  type ElicitationField,
  type ElicitationRequest,
  type ElicitationValue,
} from '../../../protocol/elicitation';

/**
 * The side panel's form for a server's question (issue 12): what each input holds while the user
 * types (text for text and number inputs, so "4." is not lost mid-keystroke), and the typed answer
 * it becomes. `submit` runs the same `checkAnswer` the host runs, so a value the form refuses is
 * shown as a problem on its field and never sent.
 */

/** One input's state: text for text and number fields, a flag, or the ticked choices. */
export type DraftValue = string | boolean | readonly string[];
export type Draft = Readonly<Record<string, DraftValue>>;

/** The form as it opens: the server's defaults filled in, everything else empty. */
export function initialDraft(fields: readonly ElicitationField[]): Draft {
  const defaults = initialValues(fields);
  const draft: Record<string, DraftValue> = {};
  for (const field of fields) {
    const value = defaults[field.name];
    switch (field.kind) {
      case 'boolean':
        draft[field.name] = value === true;
        break;
      case 'choices':
        draft[field.name] = Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
        break;
      case 'number':
        draft[field.name] = typeof value === 'number' ? String(value) : '';
        break;
      case 'text':
      case 'choice':
        draft[field.name] = typeof value === 'string' ? value : '';
        break;
    }
  }
  return draft;
}

/** The draft as typed values; an empty input is left out (the check decides if it may be). */
function typed(
  fields: readonly ElicitationField[],
  draft: Draft,
): Record<string, ElicitationValue> {
  const values: Record<string, ElicitationValue> = {};
  for (const field of fields) {
    const value = draft[field.name];
    if (value === undefined) continue;
    if (field.kind === 'number' && typeof value === 'string') {
      if (value.trim() === '') continue;
      // Not Number(): it reads "" and " " as 0 and "0x10" as 16.
      const parsed = /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)
        ? Number.parseFloat(value)
        : Number.NaN;
      values[field.name] = parsed;
    } else if (field.kind === 'choice' && value === '') {
      continue;
    } else if (typeof value === 'string' || typeof value === 'boolean') {
      values[field.name] = value;
    } else {
      values[field.name] = [...value];
    }
  }
  return values;
}

export type Submission =
  | { readonly ok: true; readonly content: Record<string, ElicitationValue> }
  | { readonly ok: false; readonly problems: Readonly<Record<string, string>> };

/** The answer to send, or each field's problem to show next to it. */
export function submit(fields: readonly ElicitationField[], draft: Draft): Submission {
  const check = checkAnswer(fields, typed(fields, draft));
  if (check.ok) return { ok: true, content: check.content };
  return { ok: false, problems: problemsByField(check.issues) };
}

/** Issues (from the page's check or the host's) by field, the first per field. */
export function problemsByField(issues: readonly AnswerIssue[]): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const issue of issues) problems[issue.field] ??= issue.message;
  return problems;
}

/** A field's label: its title, else its name. */
export function fieldLabel(field: ElicitationField): string {
  return field.title ?? field.name;
}

/** The card's heading: who asks. */
export function questionHeading(request: ElicitationRequest): string {
  return request.mode === 'url'
    ? `${request.server} asks you to open a page`
    : `${request.server} asks you`;
}

/** The HTML input type of a text field. */
export function textInputType(field: Extract<ElicitationField, { kind: 'text' }>): string {
  switch (field.format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    case 'date-time':
    case undefined:
      return 'text';
  }
}

/** "Expires in 9 min" / "Expires in 40 s". */
export function expiresIn(expiresAt: number, now: number): string {
  const seconds = Math.max(0, Math.round((expiresAt - now) / 1000));
  return seconds >= 60 ? `Expires in ${Math.round(seconds / 60)} min` : `Expires in ${seconds} s`;
}
