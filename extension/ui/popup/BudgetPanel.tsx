import { useCallback } from 'react';
import { browser } from 'wxt/browser';
import type { ResultOf } from '../../../protocol/methods';
import type { PageClient } from '../../messaging/page-client';
import type { PageEvent } from '../../messaging/ui-protocol';
import { Button } from '../common/Button';
import { Notice } from '../common/Notice';
import { budgetView, toolSearchNotice } from './budget-advice';
import { useLive } from './use-host-data';

const onHostEvent = (event: PageEvent): boolean => event.type === 'host';

/**
 * The active profile's tool listing against its token budget (design D11). Over budget, it names
 * the servers and tools to switch off and what each saves; the host picks them.
 */
export function BudgetPanel({ profile }: { readonly profile: { id: string; name: string } }) {
  const profileId = profile.id;
  const load = useCallback(
    (client: PageClient): Promise<ResultOf<'tools/list'>> =>
      client.host('tools/list', { profile: profileId }),
    [profileId],
  );
  const { data } = useLive(load, onHostEvent);
  const budget = data?.budget;
  const search = toolSearchNotice(data?.search);
  if (budget === undefined) {
    return search === null ? null : <p className="pp-budget pp-muted">{search}</p>;
  }
  const view = budgetView(budget);
  if (!view.over) {
    return (
      <p className="pp-budget pp-muted">
        Profile {profile.name}: {view.summary}
        {search === null ? null : ` ${search}`}
      </p>
    );
  }
  return (
    <Notice
      tone="warning"
      title={`Profile ${profile.name} is over its token budget`}
      actions={
        <Button
          size="small"
          onClick={() => {
            void browser.runtime.openOptionsPage();
          }}
        >
          Edit profiles
        </Button>
      }
    >
      <p>{view.summary}</p>
      {search !== null && <p>{search}</p>}
      {view.suggestions.length > 0 && (
        <ul className="pp-budget-suggestions">
          {view.suggestions.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {view.total !== null && <p>{view.total}</p>}
    </Notice>
  );
}
