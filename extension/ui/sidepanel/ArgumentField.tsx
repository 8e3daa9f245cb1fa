import { useState, type Ref } from 'react';
import type { CompletionRef } from '../../../protocol/resources';
import { pageClient } from '../common/page-client';
import { VisibleText } from '../common/VisibleText';

/**
 * One field of a form a server's item is filled in with (issue 12): a prompt's argument or a
 * resource template's variable, with the server's completions as suggestions. Shared by the
 * prompt picker and the context picker so both ask and suggest alike.
 */
export interface ArgumentFieldProps {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  readonly description?: string | undefined;
  readonly required: boolean;
  readonly value: string;
  /** The user tried to go on without it: "Required." while it is still blank. */
  readonly missing: boolean;
  readonly suggestions: readonly string[];
  readonly inputRef?: Ref<HTMLInputElement> | undefined;
  readonly onFocus: () => void;
  readonly onChange: (value: string) => void;
}

export function ArgumentField({
  id,
  label,
  description,
  required,
  value,
  missing,
  suggestions,
  inputRef,
  onFocus,
  onChange,
}: ArgumentFieldProps) {
  const listId = `${id}-options`;
  // The note goes as soon as the user fills the field in, not at the next try.
  const blank = missing && value.trim() === '';
  return (
    <div className="sy-question__field">
      <label htmlFor={id}>
        <VisibleText text={label} />
        {required ? <span className="sy-question__required"> (required)</span> : null}
      </label>
      <input
        ref={inputRef}
        id={id}
        type="text"
        list={listId}
        value={value}
        aria-invalid={blank}
        onFocus={onFocus}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      <datalist id={listId}>
        {suggestions.map((option) => (
          <option key={option} value={option} />
        ))}
      </datalist>
      <p className="sy-field-note">
        {description === undefined ? null : <VisibleText text={description} />}
        {blank ? (
          <span className="sy-error-text" role="alert">
            {' '}
            Required.
          </span>
        ) : null}
      </p>
    </div>
  );
}

/**
 * The server's completions for each field of one form, asked for as the user focuses or types
 * (`completion/complete`). A server without completions, or one that fails, suggests nothing:
 * that is not an error worth showing.
 */
export function useCompletions(server: string, ref: CompletionRef, profile: string | undefined) {
  const [suggestions, setSuggestions] = useState<Readonly<Record<string, readonly string[]>>>({});
  const complete = (name: string, value: string, filled: Record<string, string>): void => {
    pageClient()
      .host('completion/complete', {
        server,
        ref,
        argument: { name, value },
        context: { arguments: filled },
        ...(profile === undefined ? {} : { profile }),
      })
      .then(
        (result) => {
          setSuggestions((previous) => ({ ...previous, [name]: result.values }));
        },
        () => undefined,
      );
  };
  return { suggestions, complete };
}
