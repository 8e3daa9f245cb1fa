import { useMemo, useState, type SubmitEvent } from 'react';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { VisibleText } from '../common/VisibleText';
import {
  EMPTY_ADD_SERVER_FIELDS,
  parseAddServerForm,
  previewArgv,
  remoteOrigin,
  TRANSPORT_CHOICES,
  transportChoice,
  type AddServerFields,
  type FieldErrors,
  type TransportChoice,
} from './add-server-form';
import { Field } from './Field';
import { statusApplies, usePopupActions, type StatusMessage } from './status-message';

const TRANSPORT_LABELS: Readonly<Record<TransportChoice, string>> = {
  auto: 'Automatic',
  http: 'Streamable HTTP',
  sse: 'HTTP+SSE (legacy)',
};

/**
 * "Add server" (issues 5 and 11): one field for a remote server's URL or a local command line.
 * A command line is split by the argv parser (not a shell) and shown as chips before anything is
 * sent, so what is added is what the user read; a URL shows the origin it would send data to and
 * trades the environment and folder fields for headers and a transport. The host writes
 * config.json and checks everything again.
 */
export function AddServerForm({
  existingNames,
  onAdded,
}: {
  /** The configured servers' names; null until the list has loaded. */
  readonly existingNames: readonly string[] | null;
  readonly onAdded: () => void;
}) {
  const client = useMemo(() => pageClient(), []);
  const actions = usePopupActions();
  const [fields, setFields] = useState<AddServerFields>(EMPTY_ADD_SERVER_FIELDS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<StatusMessage | null>(null);
  // "Added x." stands until the next action, and only while x is configured (issue 14).
  const result = statusApplies(outcome, { action: actions.current, servers: existingNames })
    ? outcome
    : null;

  const origin = remoteOrigin(fields.target);
  const preview =
    origin !== null || fields.target.trim() === '' ? null : previewArgv(fields.target);

  const edit = (next: AddServerFields) => {
    setFields(next);
    setErrors({});
    setOutcome(null);
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseAddServerForm(fields, existingNames ?? []);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    const action = actions.begin();
    setBusy(true);
    client
      .host('servers/add', parsed.params)
      .then(({ server }) => {
        setFields(EMPTY_ADD_SERVER_FIELDS);
        setOutcome({ error: false, text: `Added ${server.name}.`, action, server: server.name });
        onAdded();
      })
      .catch((e: unknown) => {
        setOutcome({ error: true, text: errorMessage(e), action, server: null });
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
        label="URL or command"
        error={errors.target ?? (preview?.ok === false ? preview.error : undefined)}
        hint={
          origin === null ? (
            <>
              A remote server&apos;s https:// address, or a program and its arguments. Quote
              arguments with spaces; nothing is expanded (no $VARS, ~ or globs) and no shell runs
              it.
            </>
          ) : (
            <>
              A remote server: your data and any token in Headers go to{' '}
              <strong className="pp-origin">
                <VisibleText text={origin} />
              </strong>
              . https:// only (http:// to this machine: localhost, 127.0.0.1, [::1]); no user name
              or password in it.
            </>
          )
        }
      >
        {(control) => (
          <input
            {...control}
            value={fields.target}
            placeholder="https://mcp.example.com/mcp or npx -y some-server"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              edit({ ...fields, target: event.target.value });
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
      {origin === null ? (
        <>
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
        </>
      ) : (
        <>
          <Field
            label="Headers"
            error={errors.headers}
            hint={
              <>
                Optional. Name: value, one per line. Keep secrets out of the form: write{' '}
                <code>{'${VAR}'}</code> and the host fills it in from its environment or from{' '}
                <code>switchyard secret set VAR</code>.
              </>
            }
          >
            {(control) => (
              <textarea
                {...control}
                rows={2}
                value={fields.headers}
                placeholder="Authorization: Bearer ${API_TOKEN}"
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => {
                  edit({ ...fields, headers: event.target.value });
                }}
              />
            )}
          </Field>
          <Field
            label="Transport"
            hint="Automatic tries Streamable HTTP, then the legacy HTTP+SSE."
          >
            {(control) => (
              <select
                {...control}
                value={fields.transport}
                onChange={(event) => {
                  edit({ ...fields, transport: transportChoice(event.target.value) });
                }}
              >
                {TRANSPORT_CHOICES.map((choice) => (
                  <option key={choice} value={choice}>
                    {TRANSPORT_LABELS[choice]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      )}
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
