import { useEffect, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { browser } from 'wxt/browser';
import { providerOriginPattern } from '../../messaging/provider';
import type { ProviderSettingsInput, ProviderSettingsView } from '../../messaging/provider';
import type { ConnectionTestResult } from '../../messaging/connection-test';
import { Button } from '../common/Button';
import { Notice } from '../common/Notice';
import { ProviderAccessButton } from '../common/ProviderAccessButton';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { Field } from '../popup/Field';
import {
  applyPreset,
  COMPATIBLE_PRESETS,
  fieldsFromView,
  isOpenAiApi,
  isProviderKind,
  OPENAI_APIS,
  contextWindowHint,
  keyStatus,
  MODEL_PLACEHOLDERS,
  parseProviderForm,
  presetOf,
  PROVIDER_KINDS,
  testResultView,
  type ProviderFieldErrors,
  type ProviderFields,
} from './provider-form';

/** Test connection (issue 14): for the fields as they were when it ran. */
type TestState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'testing' }
  | { readonly kind: 'result'; readonly result: ConnectionTestResult }
  | { readonly kind: 'error'; readonly message: string };

type Status =
  | { readonly kind: 'idle' }
  | { readonly kind: 'saving' }
  | { readonly kind: 'saved' }
  | { readonly kind: 'error'; readonly message: string };

/** Provider, model, base URL and API key (issue 4). The stored key is never shown or sent back. */
export function ProviderSection() {
  const client = useMemo(() => pageClient(), []);
  const [stored, setStored] = useState<ProviderSettingsView | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [fields, setFields] = useState<ProviderFields>(fieldsFromView(null));
  // Whether the user has typed since the last load or save (a ref: events read it, never render it).
  const dirty = useRef(false);
  const [errors, setErrors] = useState<ProviderFieldErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [test, setTest] = useState<TestState>({ kind: 'idle' });
  // Which run's answer counts: an edit or a newer run makes an older answer stale.
  const testRun = useRef(0);

  useEffect(() => {
    let live = true;
    // Whether the status line shows a failed load: a load that then succeeds (the worker came
    // back) clears it, but never a failed save's error.
    let loadFailed = false;
    const load = async () => {
      try {
        const { provider } = await client.request('settings/get', {});
        if (!live) return;
        setStored(provider);
        if (!dirty.current) setFields(fieldsFromView(provider));
        setLoaded(true);
        if (loadFailed) {
          loadFailed = false;
          setStatus((now) => (now.kind === 'error' ? { kind: 'idle' } : now));
        }
      } catch (error) {
        if (!live) return;
        loadFailed = true;
        setStatus({ kind: 'error', message: errorMessage(error) });
      }
    };
    void load();
    const offReconnect = client.onReconnect(() => void load());
    const offEvent = client.onEvent((event) => {
      if (event.type !== 'settings') return;
      // Another page saved: take the stored view, but never overwrite what the user is typing.
      setStored(event.provider);
      if (!dirty.current) setFields(fieldsFromView(event.provider));
    });
    return () => {
      live = false;
      offReconnect();
      offEvent();
    };
  }, [client]);

  const edit = (next: ProviderFields) => {
    setFields(next);
    dirty.current = true;
    setErrors({});
    if (status.kind !== 'saving') setStatus({ kind: 'idle' });
    // The result was for other values.
    testRun.current += 1;
    setTest({ kind: 'idle' });
  };

  const runTest = () => {
    const parsed = parseProviderForm(fields, stored);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setTest({ kind: 'idle' });
      return;
    }
    const run = ++testRun.current;
    setTest({ kind: 'testing' });
    client
      .request('provider/test', { provider: parsed.input })
      .then((result) => {
        if (testRun.current === run) setTest({ kind: 'result', result });
      })
      .catch((error: unknown) => {
        if (testRun.current === run) setTest({ kind: 'error', message: errorMessage(error) });
      });
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseProviderForm(fields, stored);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setStatus({ kind: 'idle' });
      return;
    }
    // Asked inside the click (a permission request needs the gesture) and not waited for: the
    // settings are saved either way, and a server that sends CORS headers works without it.
    requestProviderAccess(parsed.input);
    setStatus({ kind: 'saving' });
    client
      .request('settings/set', { provider: parsed.input })
      .then(({ provider }) => {
        setStored(provider);
        setFields(fieldsFromView(provider));
        dirty.current = false;
        setStatus({ kind: 'saved' });
      })
      .catch((error: unknown) => {
        setStatus({ kind: 'error', message: errorMessage(error) });
      });
  };

  const key = keyStatus(fields, stored);
  const compatible = fields.kind === 'openai-compatible';
  const keyHint =
    key === 'saved'
      ? 'A key is saved. Leave this empty to keep it, or enter a new one to replace it.'
      : key === 'saved-for-other-server'
        ? 'The saved key belongs to another provider or base URL and is not sent here; enter a key for this one.'
        : compatible
          ? 'Optional: local servers such as Ollama and LM Studio need none.'
          : 'Stored in this browser profile, readable only by Switchyard, and never shown again.';

  return (
    <section className="op-card">
      <h2 id="provider-heading">Provider</h2>
      <p className="op-muted">The model the agent talks to.</p>
      <form onSubmit={onSubmit} noValidate aria-busy={!loaded}>
        <Field label="Provider" error={errors.kind}>
          {(control) => (
            <select
              {...control}
              value={fields.kind}
              onChange={(event) => {
                const kind = event.target.value;
                if (isProviderKind(kind)) edit({ ...fields, kind });
              }}
            >
              {PROVIDER_KINDS.map((entry) => (
                <option key={entry.kind} value={entry.kind}>
                  {entry.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {fields.kind === 'openai' && (
          <Field
            label="API"
            hint="Chat Completions is what OpenAI-compatible servers speak too; Responses is OpenAI's newer API. Either way nothing is stored at OpenAI between turns."
          >
            {(control) => (
              <select
                {...control}
                value={fields.api}
                onChange={(event) => {
                  const api = event.target.value;
                  if (isOpenAiApi(api)) edit({ ...fields, api });
                }}
              >
                {OPENAI_APIS.map((entry) => (
                  <option key={entry.api} value={entry.api}>
                    {entry.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {compatible && (
          <>
            <Field label="Preset" hint="Fills in the name and the usual base URL.">
              {(control) => (
                <select
                  {...control}
                  value={presetOf(fields)}
                  onChange={(event) => {
                    edit(applyPreset(fields, event.target.value));
                  }}
                >
                  <option value="">Custom</option>
                  {COMPATIBLE_PRESETS.map((preset) => (
                    <option key={preset.id} value={preset.id}>
                      {preset.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Name" error={errors.name}>
              {(control) => (
                <input
                  {...control}
                  value={fields.name}
                  onChange={(event) => {
                    edit({ ...fields, name: event.target.value });
                  }}
                  autoComplete="off"
                />
              )}
            </Field>
          </>
        )}
        <Field label="Model" error={errors.model}>
          {(control) => (
            <input
              {...control}
              value={fields.model}
              placeholder={MODEL_PLACEHOLDERS[fields.kind]}
              onChange={(event) => {
                edit({ ...fields, model: event.target.value });
              }}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <Field
          label="Context window (tokens)"
          error={errors.contextWindow}
          hint={contextWindowHint(fields.model)}
        >
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              value={fields.contextWindow}
              onChange={(event) => {
                edit({ ...fields, contextWindow: event.target.value });
              }}
              autoComplete="off"
            />
          )}
        </Field>
        <Field
          label="Base URL"
          error={errors.baseURL}
          hint={compatible ? undefined : "Optional: leave empty for the provider's own API."}
        >
          {(control) => (
            <input
              {...control}
              type="url"
              value={fields.baseURL}
              placeholder={compatible ? 'http://localhost:11434/v1' : ''}
              onChange={(event) => {
                edit({ ...fields, baseURL: event.target.value });
              }}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <Field label="API key" error={errors.apiKey} hint={keyHint}>
          {(control) => (
            <input
              {...control}
              type="password"
              value={fields.apiKey}
              onChange={(event) => {
                edit({ ...fields, apiKey: event.target.value });
              }}
              autoComplete="new-password"
              spellCheck={false}
            />
          )}
        </Field>
        {compatible && (
          <label className="op-check">
            <input
              type="checkbox"
              checked={fields.acceptsImages}
              onChange={(event) => {
                edit({ ...fields, acceptsImages: event.target.checked });
              }}
            />
            This model accepts images (tool images and screenshots are sent to it; otherwise it
            reads a line of text in their place)
          </label>
        )}
        <div className="op-actions">
          <Button type="submit" variant="primary" disabled={status.kind === 'saving'}>
            Save
          </Button>
          <Button onClick={runTest} disabled={test.kind === 'testing'}>
            Test connection
          </Button>
          <p role="status" className={status.kind === 'error' ? 'sy-error-text' : 'op-muted'}>
            {status.kind === 'saving'
              ? 'Saving…'
              : status.kind === 'saved'
                ? 'Saved.'
                : status.kind === 'error'
                  ? status.message
                  : ''}
          </p>
        </div>
        <TestOutcome
          state={test}
          onGranted={() => {
            runTest();
          }}
        />
      </form>
    </section>
  );
}

/** What Test connection found, with the access to grant when that is what is missing. */
function TestOutcome({
  state,
  onGranted,
}: {
  readonly state: TestState;
  readonly onGranted: () => void;
}) {
  if (state.kind === 'idle') return null;
  if (state.kind === 'testing') {
    return (
      <p role="status" className="op-muted">
        Testing the connection…
      </p>
    );
  }
  if (state.kind === 'error') {
    return (
      <Notice tone="error" title="Could not test">
        {state.message}
      </Notice>
    );
  }
  const { result } = state;
  const view = testResultView(result);
  return (
    <Notice
      tone={view.tone}
      title={view.title}
      actions={
        result.access === undefined ? undefined : (
          <ProviderAccessButton
            size="small"
            access={result.access}
            onAnswer={(granted) => {
              if (granted) onGranted();
            }}
          />
        )
      }
    >
      <span className="op-wrap">{result.message}</span>
    </Notice>
  );
}

function requestProviderAccess(input: ProviderSettingsInput): void {
  const pattern = providerOriginPattern(input);
  if (pattern === null) return;
  browser.permissions.request({ origins: [pattern] }).catch((error: unknown) => {
    console.warn('[switchyard] could not ask for access to the provider', error);
  });
}
