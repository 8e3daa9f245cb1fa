import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { useSwitchyard } from './support/session';
import { cardField, consentCard } from './support/side-panel';
import { screenshotSidePanelModes } from './support/ui';
import { openWithWorkspaceServers } from './support/workspace';

// Journey (issue 11, decisions 0024 and 0032): a repository's `.mcp.json` names remote servers
// whose OAuth clients get tokens with no person signing in: a machine-to-machine client and a
// cross-app access client (which sends the user's ID token to the company IdP). Each consent card
// says so before anything is contacted: the grant, the variables its secrets come from, the
// issuer it is pinned to, its scopes and, for cross-app access, the IdP and a warning.

/** Never contacted: both servers wait for approval. */
const UNREACHABLE = 'http://127.0.0.1:9/mcp';

const CLIENTS = [
  {
    server: 'inventory',
    oauth: {
      grant: 'client_credentials',
      clientId: 'svc-switchyard',
      clientSecret: '${INVENTORY_CLIENT_SECRET}',
      issuer: 'https://idp.internal.example.com',
      scopes: ['inventory.read'],
    },
    clientId: 'svc-switchyard',
    grantLine:
      'client_credentials with client secret, issuer "https://idp.internal.example.com", scopes ["inventory.read"]',
    warning: null,
    screenshot: 'sidepanel-consent-machine-client',
  },
  {
    server: 'wiki',
    oauth: {
      grant: 'cross-app-access',
      clientId: 'switchyard-wiki',
      clientSecret: '${WIKI_CLIENT_SECRET}',
      issuer: 'https://auth.wiki.example.com',
      idp: { issuer: 'https://acme.okta.com', clientId: 'switchyard', idToken: '${IDP_ID_TOKEN}' },
    },
    clientId: 'switchyard-wiki',
    grantLine:
      'cross-app-access: ID token ${IDP_ID_TOKEN} sent to IdP "https://acme.okta.com" (client "switchyard", no secret, token endpoint discovered) for a grant to issuer "https://auth.wiki.example.com", scopes []',
    warning:
      'Sends your ID token from ${IDP_ID_TOKEN} to the identity provider "https://acme.okta.com"',
    screenshot: 'sidepanel-consent-cross-app-access',
  },
] as const;

const session = useSwitchyard({ launch: false });
let panel: Page;

beforeAll(async () => {
  ({ panel } = await openWithWorkspaceServers(session, () =>
    Object.fromEntries(
      CLIENTS.map(({ server, oauth }) => [server, { type: 'http', url: UNREACHABLE, oauth }]),
    ),
  ));
});

it.each(CLIENTS)(
  'the consent card of $server says its tokens come with no sign-in ($oauth.grant)',
  async ({ server, clientId, grantLine, warning, screenshot }) => {
    const card = consentCard(panel, server);
    await card.waitFor();
    expect(await cardField(card, 'Signs in as OAuth client').textContent()).toContain(clientId);
    const grant = cardField(card, 'Gets tokens with no sign-in');
    expect(await grant.textContent()).toBe(grantLine);
    if (warning !== null) expect(await card.textContent()).toContain(warning);
    // The card's fields scroll inside it: show the grant's row, which a reviewer looks for.
    await grant.scrollIntoViewIfNeeded();
    await screenshotSidePanelModes(panel, screenshot);
  },
);
