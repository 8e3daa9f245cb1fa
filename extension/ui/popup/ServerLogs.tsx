import { useCallback } from 'react';
import type { ResultOf } from '../../../protocol/methods';
import type { PageClient } from '../../messaging/page-client';
import type { PageEvent } from '../../messaging/ui-protocol';
import { Button } from '../common/Button';
import { withServer } from './server-view';
import { UntrustedText } from '../common/UntrustedText';
import { useLive } from './use-host-data';

/** Lines of stderr the popup asks for; the host keeps more. */
export const LOG_LINES = 200;
/** Characters shown before "Show all". */
const LOG_CHARS = 8000;

/** A server's last stderr lines: its own text, sanitized by the host, shown as plain text. */
export function ServerLogs({ server }: { readonly server: string }) {
  const load = useCallback(
    (client: PageClient): Promise<ResultOf<'servers/logs'>> =>
      client.host('servers/logs', { server, limit: LOG_LINES }),
    [server],
  );
  const refreshOn = useCallback(
    (event: PageEvent) =>
      event.type === 'host' &&
      event.method === 'notifications/servers/changed' &&
      event.server === server,
    [server],
  );
  const { data, error, reload } = useLive(load, refreshOn);

  let summary = 'Loading logs…';
  if (data !== null) {
    const count = data.lines.length;
    summary =
      count === 0
        ? 'No stderr output yet.'
        : `Last ${count} stderr ${count === 1 ? 'line' : 'lines'}${data.dropped > 0 ? ` (${data.dropped} older dropped)` : ''}:`;
  }
  return (
    <section className="pp-logs" aria-label={`Logs of ${server}`}>
      <div className="pp-logs-head">
        <span className="pp-muted">{summary}</span>
        <Button
          size="small"
          variant="quiet"
          aria-label={withServer('Refresh logs', server, 'of')}
          onClick={() => void reload()}
        >
          Refresh logs
        </Button>
      </div>
      {error !== null && <p className="sy-error-text">{error}</p>}
      {data !== null && data.lines.length > 0 && (
        <div className="pp-log-text">
          <UntrustedText text={data.lines.join('\n')} maxChars={LOG_CHARS} />
        </div>
      )}
    </section>
  );
}
