import { useMemo, useState, type SubmitEvent } from 'react';
import type { ServerSummary } from '../../../protocol/servers';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import {
  editFields,
  parseEditServerForm,
  type EditFieldErrors,
  type EditServerFields,
  type WrittenVariable,
} from './edit-server-form';
import { Field } from './Field';
import { usePopupActions } from './status-message';

/**
 * Edit of a local server (issue 14): command line, environment and folder, sent as
 * `servers/update`. What runs changes only after the user approves the new launch on the card the
 * row then shows: the host stops the server and holds the edit at the launch gate. Values of the
 * variables already set are never shown (the popup is not sent them).
 */
export function EditServerForm({
  server,
  onDone,
}: {
  readonly server: ServerSummary;
  /** Called with the host's answer and the action number once saved; with null on Cancel. */
  readonly onDone: (saved: ServerSummary | null, action?: number) => void;
}) {
  const client = useMemo(() => pageClient(), []);
  const actions = usePopupActions();
  const [fields, setFields] = useState<EditServerFields>(() => editFields(server));
  const [errors, setErrors] = useState<EditFieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const name = server.name;

  const edit = (next: EditServerFields) => {
    setFields(next);
    setErrors({});
    setFailure(null);
  };
  const editVariable = (index: number, change: Partial<WrittenVariable>) => {
    edit({
      ...fields,
      written: fields.written.map((v, i) => (i === index ? { ...v, ...change } : v)),
    });
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = parseEditServerForm(name, fields);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    const begun = actions.begin();
    setBusy(true);
    client
      .host('servers/update', result.params)
      .then(({ server: saved }) => {
        onDone(saved, begun);
      })
      .catch((e: unknown) => {
        setFailure(errorMessage(e));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  return (
    <form className="pp-edit" aria-label={`Edit ${name}`} onSubmit={submit} noValidate>
      <p className="pp-muted">
        A change to what runs stops the server; it starts again once you approve the new launch.
      </p>
      <Field
        label="Command"
        error={errors.commandLine}
        hint="Split like a shell, but nothing expands."
      >
        {(control) => (
          <input
            {...control}
            value={fields.commandLine}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              edit({ ...fields, commandLine: event.target.value });
            }}
          />
        )}
      </Field>
      {fields.written.length > 0 && (
        <fieldset className="pp-env">
          <legend>Environment</legend>
          {fields.written.map((variable, index) => (
            <div key={variable.key} className="pp-env-row">
              <label className="pp-env-key" htmlFor={`${name}-env-${index}`}>
                <code>{variable.key}</code>
              </label>
              <input
                id={`${name}-env-${index}`}
                aria-label={`New value of ${variable.key}`}
                value={variable.replacement}
                placeholder={variable.removed ? 'removed' : 'value kept'}
                disabled={variable.removed}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => {
                  editVariable(index, { replacement: event.target.value });
                }}
              />
              <label className="pp-env-remove">
                <input
                  type="checkbox"
                  checked={variable.removed}
                  onChange={(event) => {
                    editVariable(index, { removed: event.currentTarget.checked });
                  }}
                />
                Remove<span className="sy-sr-only"> {variable.key}</span>
              </label>
            </div>
          ))}
        </fieldset>
      )}
      <Field
        label="Add variables"
        error={errors.added}
        hint="KEY=VALUE, one per line; ${VAR} is taken from the host's environment."
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={fields.added}
            placeholder="LOG_LEVEL=debug"
            spellCheck={false}
            onChange={(event) => {
              edit({ ...fields, added: event.target.value });
            }}
          />
        )}
      </Field>
      <Field label="Working folder" error={errors.cwd} hint="Optional; an absolute folder.">
        {(control) => (
          <input
            {...control}
            value={fields.cwd}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              edit({ ...fields, cwd: event.target.value });
            }}
          />
        )}
      </Field>
      {failure !== null && (
        <p role="alert" className="sy-error-text">
          {failure}
        </p>
      )}
      <div className="pp-actions">
        <Button type="submit" variant="primary" size="small" disabled={busy} aria-busy={busy}>
          Save
        </Button>
        <Button
          size="small"
          aria-label={`Cancel editing ${name}`}
          onClick={() => {
            onDone(null);
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}
