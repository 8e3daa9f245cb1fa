import type { ContextMeter } from '../../messaging/ui-protocol';
import {
  budgetView,
  toolSearchText,
  exactTokens,
  formatTokens,
  largestServers,
  meterSegments,
  meterSummary,
} from './context-meter-view';

/**
 * What every model turn costs (design D11): a stacked bar of system prompt, conversation,
 * built-in tools and MCP tools, the biggest servers by name, and the profile's tool budget.
 */
export function ContextMeterBar({ meter }: { readonly meter: ContextMeter | null }) {
  if (meter === null) return null;
  const segments = meterSegments(meter);
  const servers = largestServers(meter);
  const budget = budgetView(meter);
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
        </summary>
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
