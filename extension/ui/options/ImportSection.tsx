import { useMemo, useState } from 'react';
import type { ImportEntryPreview, ImportSourcePreview } from '../../../protocol/import';
import type { ResultOf } from '../../../protocol/methods';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { UntrustedText } from '../common/UntrustedText';
import { VisibleText } from '../common/VisibleText';
import {
  defaultSelection,
  describeImportAction,
  entryKey,
  isSelectable,
  remoteDetail,
  selectionsOf,
  sourceSummary,
} from './import-view';
import { SectionNotice, type Notice } from './SectionNotice';

type Preview = ResultOf<'import/preview'>;

/**
 * Import servers from other MCP clients' configuration files (issue 5): a dry-run preview per
 * client (what would be added, what conflicts, what cannot be converted and why), ticks, Apply.
 * Everything in a preview came from another program's file and is shown as text.
 */
export function ImportSection() {
  const client = useMemo(() => pageClient(), []);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<'preview' | 'apply' | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  const loadPreview = async (): Promise<void> => {
    const next = await client.host('import/preview', {});
    setPreview(next);
    setTicked(defaultSelection(next.sources));
  };

  const onPreview = () => {
    setBusy('preview');
    setNotice(null);
    loadPreview()
      .catch((e: unknown) => {
        setNotice({ error: true, text: errorMessage(e) });
      })
      .finally(() => {
        setBusy(null);
      });
  };

  const selections = preview === null ? [] : selectionsOf(preview.sources, ticked);

  const onApply = () => {
    if (selections.length === 0) return;
    setBusy('apply');
    setNotice(null);
    client
      .host('import/apply', { entries: selections })
      .then(async (result) => {
        const written = result.written.map((entry) => entry.server);
        const parts = [
          written.length === 0
            ? 'Nothing was added.'
            : `Added ${written.length} ${written.length === 1 ? 'server' : 'servers'}: ${written.join(', ')}.`,
        ];
        if (result.unchanged.length > 0) {
          parts.push(`${result.unchanged.length} already configured the same way.`);
        }
        setNotice({ error: false, text: parts.join(' ') });
        await loadPreview();
      })
      .catch((e: unknown) => {
        setNotice({ error: true, text: errorMessage(e) });
      })
      .finally(() => {
        setBusy(null);
      });
  };

  const toggle = (key: string, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(key);
    else next.delete(key);
    setTicked(next);
  };

  return (
    <section className="op-card">
      <h2 id="import-heading">Import</h2>
      <p className="op-muted">
        Copy servers from Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Codex and Zed into
        your Switchyard configuration. Nothing is written until you apply; imported servers start
        without asking, so import only what you recognise.
      </p>
      <div className="op-actions">
        <Button onClick={onPreview} disabled={busy !== null} aria-busy={busy === 'preview'}>
          {preview === null ? 'Preview import' : 'Preview again'}
        </Button>
        {preview !== null && (
          <span className="op-muted">
            Writes to <code>{preview.configFile}</code>
          </span>
        )}
      </div>
      {preview?.sources.map((source) => (
        <SourcePreview key={source.source} source={source} ticked={ticked} onToggle={toggle} />
      ))}
      {preview !== null && (
        <div className="op-actions">
          <Button
            variant="primary"
            onClick={onApply}
            disabled={busy !== null || selections.length === 0}
            aria-busy={busy === 'apply'}
          >
            Apply
          </Button>
          <span className="op-muted">
            {selections.length === 0
              ? 'Nothing selected.'
              : `${selections.length} ${selections.length === 1 ? 'server' : 'servers'} selected.`}
          </span>
        </div>
      )}
      <SectionNotice notice={notice} />
    </section>
  );
}

function SourcePreview({
  source,
  ticked,
  onToggle,
}: {
  readonly source: ImportSourcePreview;
  readonly ticked: ReadonlySet<string>;
  readonly onToggle: (key: string, on: boolean) => void;
}) {
  return (
    <section className="op-import-source" aria-label={source.label}>
      <h3>{source.label}</h3>
      <p className="op-muted op-wrap">
        <code>
          <VisibleText text={source.path} />
        </code>
        {' — '}
        <UntrustedText text={sourceSummary(source)} inline />
      </p>
      {source.warnings.map((warning, index) => (
        <p key={index} className="op-warning">
          <UntrustedText text={warning} inline />
        </p>
      ))}
      {source.entries.length > 0 && (
        <table className="op-import-table">
          <thead>
            <tr>
              <th scope="col">Import</th>
              <th scope="col">Server</th>
              <th scope="col">What happens</th>
              <th scope="col">Command</th>
            </tr>
          </thead>
          <tbody>
            {source.entries.map((entry) => (
              <EntryRow
                key={entry.name}
                label={source.label}
                entry={entry}
                checkKey={entryKey(source.source, entry.name)}
                ticked={ticked}
                onToggle={onToggle}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function EntryRow({
  label,
  entry,
  checkKey,
  ticked,
  onToggle,
}: {
  readonly label: string;
  readonly entry: ImportEntryPreview;
  readonly checkKey: string;
  readonly ticked: ReadonlySet<string>;
  readonly onToggle: (key: string, on: boolean) => void;
}) {
  const selectable = isSelectable(entry);
  return (
    <tr>
      <td>
        <input
          type="checkbox"
          aria-label={`Import ${entry.name} from ${label}`}
          disabled={!selectable}
          checked={selectable && ticked.has(checkKey)}
          onChange={(event) => {
            onToggle(checkKey, event.target.checked);
          }}
        />
      </td>
      <td>
        <VisibleText text={entry.name} edgeSpaces />
        {entry.disabled && <span className="op-muted"> (switched off)</span>}
      </td>
      <td className={`op-action-${entry.action}`}>
        {describeImportAction(entry)}
        {entry.reason !== null && (
          <div className="op-muted">
            <UntrustedText text={entry.reason} inline />
          </div>
        )}
      </td>
      <td>
        {entry.launch !== null && (
          <code>
            <VisibleText text={entry.launch.commandLine} />
          </code>
        )}
        {entry.launch !== null && remoteDetail(entry.launch) !== null && (
          <div className="op-muted">
            <VisibleText text={remoteDetail(entry.launch) ?? ''} />
          </div>
        )}
        {entry.launch !== null && entry.launch.envKeys.length > 0 && (
          <div className="op-muted">
            env: <VisibleText text={entry.launch.envKeys.join(', ')} />
          </div>
        )}
        {entry.existing !== null && entry.action !== 'same' && (
          <div className="op-muted">
            configured now:{' '}
            <code>
              <VisibleText text={entry.existing.commandLine} />
            </code>
          </div>
        )}
        {entry.notes.map((note, index) => (
          <div key={index} className="op-muted">
            <UntrustedText text={note} inline />
          </div>
        ))}
      </td>
    </tr>
  );
}
