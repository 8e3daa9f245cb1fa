import type { ConsentRequest, ServerSummary } from '../../../protocol/servers';
import { consentKey } from '../common/consent-view';

/** The servers that wait for launch approval (design D6), minus the ones the user put off. */
export function pendingConsents(
  servers: readonly ServerSummary[],
  dismissed: ReadonlySet<string>,
): ConsentRequest[] {
  const consents: ConsentRequest[] = [];
  for (const server of servers) {
    if (server.status.state !== 'needs-approval') continue;
    if (dismissed.has(consentKey(server.status.consent))) continue;
    consents.push(server.status.consent);
  }
  return consents;
}

/** "1 server waits for your approval" / "3 servers wait for your approval". */
export function consentHeading(count: number): string {
  return count === 1
    ? '1 server waits for your approval'
    : `${count} servers wait for your approval`;
}
