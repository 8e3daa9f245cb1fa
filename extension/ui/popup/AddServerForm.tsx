import { useMemo, useState, type SubmitEvent } from 'react';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import {
  EMPTY_ADD_SERVER_FIELDS,
  parseAddServerForm,
  previewArgv,
  type AddServerFields,
  type FieldErrors,
} from './add-server-form';
import { Field } from './Field';

/**
 * "Add server" (issue 5): one command line split by the argv parser (not a shell), shown as chips
 * before anything is sent, so what is added is what the user read. The host writes config.json.
 */
export function AddServerForm({
  existingNames,
  onAdded,
}: {
  readonly existingNames: readonly string[];
  readonly onAdded: () => void;
}) {
  const client = useMemo(() => pageClient(), []);
  const [fields, setFields] = useState<AddServerFields>(EMPTY_ADD_SERVER_FIELDS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ error: boolean; text: string } | null>(null);

  const preview = fields.commandLine.trim() === '' ? null : previewArgv(fields.commandLine);

  const edit = (next: AddServerFields) => {
    setFields(next);
    setErrors({});
    setResult(null);
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseAddServerForm(fields, existingNames);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setBusy(true);
    client
      .host('servers/add', parsed.params)
      .then(({ server }) => {
        setFields(EMPTY_ADD_SERVER_FIELDS);
        setResult({ error: false, text: `Added ${server.name}.` });
        onAdded();
      })
      .catch((e: unknown) => {
        setResult({ error: true, text: errorMessage(e) });
      })
      .finally(() => {
        setBusy(false);
      });
  };

  return (
    <form className="pp-add-server" onSubmit={onSubmit} noValidate aria-labelledby="add-heading">
      <h2 id="add-heading">Add a server</h2>
      <Field label="Name" error={errors.name}>
        {(control) => (
          <input
            {...control}
            value={fields.name}
            placeholder="files"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              edit({ ...fields, name: event.target.value });
            }}
          />
        )}
      </Field>
      <Field
        label="Command"
        error={errors.commandLine ?? (preview?.ok === false ? preview.error : undefined)}
        hint="The program and its arguments. Quote arguments with spaces; nothing is expanded (no $VARS, ~ or globs) and no shell runs it."
      >
        {(control) => (
          <input
            {...control}
            value={fields.commandLine}
            placeholder='npx -y @modelcontextprotocol/server-filesystem "/Users/me/My Documents"'
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              edit({ ...fields, commandLine: event.target.value });
            }}
          />
        )}
      </Field>
      {preview?.ok === true && preview.argv.length > 0 && (
        <ol className="pp-argv" aria-label="Parsed arguments">
          {preview.argv.map((arg, index) => (
            // Arguments repeat (`-y -y`); their position is their identity.
            <li key={index} className={index === 0 ? 'pp-chip pp-chip-program' : 'pp-chip'}>
              {arg === '' ? <em>(empty)</em> : arg}
            </li>
          ))}
        </ol>
      )}
      <Field
        label="Environment"
        error={errors.env}
        hint="Optional. KEY=VALUE, one per line; ${VAR} is taken from the host's environment."
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={fields.env}
            placeholder="GITHUB_TOKEN=${GITHUB_TOKEN}"
            spellCheck={false}
            onChange={(event) => {
              edit({ ...fields, env: event.target.value });
            }}
          />
        )}
      </Field>
      <Field label="Working folder" error={errors.cwd} hint="Optional.">
        {(control) => (
          <input
            {...control}
            value={fields.cwd}
            placeholder="/home/me/src/project"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              edit({ ...fields, cwd: event.target.value });
            }}
          />
        )}
      </Field>
      <div className="pp-actions">
        <Button type="submit" variant="primary" disabled={busy} aria-busy={busy}>
          Add server
        </Button>
        {result !== null && (
          <p role="status" className={result.error ? 'sy-error-text' : 'pp-muted'}>
            {result.text}
          </p>
        )}
      </div>
    </form>
  );
}
