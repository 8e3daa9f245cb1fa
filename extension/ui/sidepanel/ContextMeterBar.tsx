import type { Usage } from '../../messaging/agent-events';
import type { ContextMeter } from '../../messaging/ui-protocol';
import { usageLabel, usageText } from './usage-view';
import {
  budgetView,
  toolSearchText,
  exactTokens,
  formatTokens,
  largestServers,
  meterSegments,
  meterSummary,
  windowView,
} from './context-meter-view';

/**
 * What every model turn costs (design D11): a stacked bar of system prompt, conversation (and its
 * images, once it has any), built-in tools and MCP tools against the model's context window
 * (issue 14), the biggest servers by name, the profile's tool budget, and what the provider
 * reported the chat used.
 */
export function ContextMeterBar({
  meter,
  usage,
}: {
  readonly meter: ContextMeter | null;
  /** The conversation's usage as the provider reported it; null: none reported. */
  readonly usage: Usage | null;
}) {
  if (meter === null) return null;
  const segments = meterSegments(meter);
  const servers = largestServers(meter);
  const budget = budgetView(meter);
  const window = windowView(meter);
  const search = toolSearchText(meter);
  const description = segments.map((s) => `${s.label} ${exactTokens(s.tokens)}`).join(', ');
  return (
    <section className="sy-meter" aria-label="Context used per turn">
      <div className="sy-meter__bar" role="img" aria-label={`Tokens per turn: ${description}`}>
        {segments.map((segment) =>
          segment.fraction === 0 ? null : (
            <span
              key={segment.key}
              className={`sy-meter__seg sy-meter__seg--${segment.key}`}
              style={{ width: `${(segment.fraction * 100).toFixed(2)}%` }}
              title={`${segment.label}: ${exactTokens(segment.tokens)} tokens`}
            />
          ),
        )}
      </div>
      <details className="sy-meter__details">
        <summary>
          {meterSummary(meter)}
          {budget?.over === true && meter.toolSearch === null ? (
            <span className="sy-meter__over"> · over budget</span>
          ) : null}
          {window?.over === true ? (
            <span className="sy-meter__over"> · over the window</span>
          ) : null}
        </summary>
        {window === null ? null : <p className="sy-meter__servers">{window.text}</p>}
        {usage === null ? null : (
          <p className="sy-meter__servers" title={usageLabel(usage)}>
            This conversation so far: {usageText(usage)} tokens (as the provider reported).
          </p>
        )}
        <ul className="sy-meter__legend">
          {segments.map((segment) => (
            <li key={segment.key}>
              <span
                className={`sy-meter__swatch sy-meter__seg--${segment.key}`}
                aria-hidden="true"
              />
              {segment.label}
              <span className="sy-meter__num" title={`${exactTokens(segment.tokens)} tokens`}>
                {formatTokens(segment.tokens)}
              </span>
            </li>
          ))}
        </ul>
        {servers.named.length === 0 ? null : (
          <p className="sy-meter__servers">
            Largest MCP servers:{' '}
            {servers.named.map((s, index) => (
              <span key={s.server}>
                {index > 0 ? ', ' : null}
                <code>{s.server}</code> {formatTokens(s.tokens)}
              </span>
            ))}
            {servers.others.tokens > 0 && servers.others.count > 0
              ? ` and ${servers.others.count} more (${formatTokens(servers.others.tokens)})`
              : null}
          </p>
        )}
        {budget === null && search !== null ? <p className="sy-meter__servers">{search}</p> : null}
      </details>
      {budget === null ? null : (
        <div className={budget.over ? 'sy-budget sy-budget--over' : 'sy-budget'}>
          <div
            className="sy-budget__bar"
            role="meter"
            aria-label="Tool budget"
            aria-valuemin={0}
            aria-valuemax={budget.limit}
            aria-valuenow={budget.used}
            aria-valuetext={budget.text}
          >
            <span style={{ width: `${(budget.fraction * 100).toFixed(2)}%` }} />
          </div>
          <p>{budget.text}</p>
          {budget.hint === null ? null : <p className="sy-budget__hint">{budget.hint}</p>}
        </div>
      )}
    </section>
  );
}
