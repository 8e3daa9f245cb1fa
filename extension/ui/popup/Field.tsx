import { useId, type ReactNode } from 'react';
import './field.css';

/** What a Field hands its control so the label, hint and error are tied to it. */
export interface FieldControlProps {
  readonly id: string;
  readonly 'aria-invalid': boolean;
  readonly 'aria-describedby': string | undefined;
}

/**
 * A labelled form control with an optional hint and error under it. The label is exactly `label`
 * (tests and screen readers find the control by it); hint and error are tied with
 * aria-describedby, never put inside the label.
 */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  readonly label: string;
  readonly hint?: ReactNode;
  readonly error?: string | undefined;
  readonly children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint !== undefined ? hintId : null, error !== undefined ? errorId : null]
      .filter((part) => part !== null)
      .join(' ') || undefined;
  return (
    <div className="fld">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error !== undefined, 'aria-describedby': describedBy })}
      {hint !== undefined && (
        <p id={hintId} className="fld-hint">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={errorId} className="fld-error sy-error-text">
          {error}
        </p>
      )}
    </div>
  );
}
