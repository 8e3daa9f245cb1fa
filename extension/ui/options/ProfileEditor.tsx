import { useState, type SubmitEvent } from 'react';
import type { Profile } from '../../../protocol/profiles';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { Field } from '../popup/Field';
import {
  isDefaultProfile,
  isProfileMode,
  isToolSearchSetting,
  TOOL_SEARCH_SETTINGS,
  parseProfileForm,
  PROFILE_MODES,
  profileIdFor,
  type ProfileFieldErrors,
  type ProfileFields,
} from './profile-form';

/**
 * Creates or edits one profile (design D10). The host stores and enforces it; this form only
 * checks it with the same schema first so problems show next to their field.
 */
export function ProfileEditor({
  initial,
  isNew,
  takenIds,
  serverNames,
  onSave,
  onCancel,
}: {
  readonly initial: ProfileFields;
  readonly isNew: boolean;
  /** Ids of the other profiles (a new profile's id must differ). */
  readonly takenIds: readonly string[];
  /** Configured servers, for the checkboxes. */
  readonly serverNames: readonly string[];
  /** Sends the profile; rejects with a message to show. */
  readonly onSave: (profile: Profile) => Promise<void>;
  readonly onCancel: () => void;
}) {
  const [fields, setFields] = useState<ProfileFields>(initial);
  const [errors, setErrors] = useState<ProfileFieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  const id = isNew ? profileIdFor(fields.name, takenIds) : fields.id;
  const isDefault = isDefaultProfile({ id });
  // Servers the profile names that are not configured (any more) stay listed, so saving keeps them.
  const allNames = [...new Set([...serverNames, ...fields.servers])].sort();

  const edit = (next: ProfileFields) => {
    setFields(next);
    setErrors({});
    setSaveError(null);
  };

  const toggleServer = (name: string, on: boolean) => {
    const servers = on
      ? [...fields.servers, name]
      : fields.servers.filter((server) => server !== name);
    edit({ ...fields, servers });
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseProfileForm({ ...fields, id });
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setSaving(true);
    onSave(parsed.profile)
      .catch((error: unknown) => {
        setSaveError(errorMessage(error));
      })
      .finally(() => {
        setSaving(false);
      });
  };

  return (
    <form className="op-profile-editor" onSubmit={onSubmit} noValidate>
      <h3>{isNew ? 'New profile' : `Edit ${initial.name}`}</h3>
      <Field
        label="Profile name"
        error={errors.name ?? errors.id}
        hint={isNew ? `Id: ${id}` : undefined}
      >
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
      {!isDefault && (
        <Field
          label="Sites"
          error={errors.match}
          hint="URL match patterns, one per line, e.g. https://github.com/* or http://localhost:5173/*. The most specific match wins."
        >
          {(control) => (
            <textarea
              {...control}
              rows={3}
              value={fields.match}
              onChange={(event) => {
                edit({ ...fields, match: event.target.value });
              }}
              spellCheck={false}
            />
          )}
        </Field>
      )}
      <fieldset className="op-fieldset">
        <legend>Servers</legend>
        <label className="op-check">
          <input
            type="checkbox"
            checked={fields.allServers}
            onChange={(event) => {
              edit({ ...fields, allServers: event.target.checked });
            }}
          />
          All servers, including ones added later
        </label>
        {!fields.allServers && (
          <ul className="op-checklist">
            {allNames.length === 0 && <li className="op-muted">No servers configured yet.</li>}
            {allNames.map((name) => (
              <li key={name}>
                <label className="op-check">
                  <input
                    type="checkbox"
                    checked={fields.servers.includes(name)}
                    onChange={(event) => {
                      toggleServer(name, event.target.checked);
                    }}
                  />
                  {name}
                  {!serverNames.includes(name) && (
                    <span className="op-muted"> (not configured)</span>
                  )}
                </label>
              </li>
            ))}
          </ul>
        )}
        {errors.servers !== undefined && (
          <p className="fld-error sy-error-text">{errors.servers}</p>
        )}
      </fieldset>
      <Field
        label="Include tools"
        error={errors.include}
        hint="Only tools matching one of these globs, one per line (e.g. github__list_*). Empty: every tool."
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={fields.include}
            onChange={(event) => {
              edit({ ...fields, include: event.target.value });
            }}
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label="Exclude tools"
        error={errors.exclude}
        hint="Tools matching one of these globs are hidden, even if included."
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={fields.exclude}
            onChange={(event) => {
              edit({ ...fields, exclude: event.target.value });
            }}
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label="Mode"
        error={errors.mode}
        hint={PROFILE_MODES.find((entry) => entry.mode === fields.mode)?.help}
      >
        {(control) => (
          <select
            {...control}
            value={fields.mode}
            onChange={(event) => {
              const mode = event.target.value;
              if (isProfileMode(mode)) edit({ ...fields, mode });
            }}
          >
            {PROFILE_MODES.map((entry) => (
              <option key={entry.mode} value={entry.mode}>
                {entry.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Workspace folder"
        error={errors.workspace}
        hint="Optional. Its .mcp.json and .vscode/mcp.json servers join this profile (each asks for approval first), and it is offered to servers as a root."
      >
        {(control) => (
          <input
            {...control}
            value={fields.workspace}
            placeholder="/home/me/src/project"
            onChange={(event) => {
              edit({ ...fields, workspace: event.target.value });
            }}
            spellCheck={false}
            autoComplete="off"
          />
        )}
      </Field>
      <Field
        label="Token budget"
        error={errors.tokenBudget}
        hint="Optional. Most tokens this profile's tool definitions should add to every model turn."
      >
        {(control) => (
          <input
            {...control}
            inputMode="numeric"
            value={fields.tokenBudget}
            placeholder="8000"
            onChange={(event) => {
              edit({ ...fields, tokenBudget: event.target.value });
            }}
            autoComplete="off"
          />
        )}
      </Field>
      <Field
        label="Tool search"
        error={errors.toolSearch}
        hint={TOOL_SEARCH_SETTINGS.find((entry) => entry.setting === fields.toolSearch)?.help}
      >
        {(control) => (
          <select
            {...control}
            value={fields.toolSearch}
            onChange={(event) => {
              const toolSearch = event.target.value;
              if (isToolSearchSetting(toolSearch)) edit({ ...fields, toolSearch });
            }}
          >
            {TOOL_SEARCH_SETTINGS.map((entry) => (
              <option key={entry.setting} value={entry.setting}>
                {entry.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Pinned tools"
        error={errors.pinnedTools}
        hint="In tool search mode, tools matching one of these globs are always sent in full. Pinning grants nothing: policy still decides each call."
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={fields.pinnedTools}
            placeholder="github__create_issue"
            onChange={(event) => {
              edit({ ...fields, pinnedTools: event.target.value });
            }}
            spellCheck={false}
          />
        )}
      </Field>
      <div className="op-actions">
        <Button type="submit" variant="primary" disabled={saving}>
          Save profile
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
        {saveError !== null && (
          <p role="alert" className="sy-error-text">
            {saveError}
          </p>
        )}
      </div>
    </form>
  );
}
