import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { useSwitchyard } from './support/session';
import { cardField, consentCard } from './support/side-panel';
import { openSidePanel, screenshotSidePanelModes, uiRequest, waitForTools } from './support/ui';

// Journey (issue 11, decision 0024): a repository's `.mcp.json` names a remote server with a
// machine-to-machine OAuth client. Such a client gets tokens with no person signing in, so its
// consent card says so, with the grant, the variable its secret comes from, the issuer it is
// pinned to and its scopes, before anything is contacted.

const SERVER = 'inventory';
const session = useSwitchyard({ launch: false });
let panel: Page;

beforeAll(async () => {
  const { profile } = session;
  const repo = join(profile.root, 'repo');
  mkdirSync(repo);
  writeFileSync(
    join(repo, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        [SERVER]: {
          type: 'http',
          // Never contacted: the server waits for approval.
          url: 'http://127.0.0.1:9/mcp',
          oauth: {
            grant: 'client_credentials',
            clientId: 'svc-switchyard',
            clientSecret: '${INVENTORY_CLIENT_SECRET}',
            issuer: 'https://idp.internal.example.com',
            scopes: ['inventory.read'],
          },
        },
      },
    }),
  );
  const configFile = join(profile.switchyardHome, 'config.json');
  const config = z
    .record(z.string(), z.unknown())
    .parse(JSON.parse(readFileSync(configFile, 'utf8')));
  writeFileSync(configFile, JSON.stringify({ ...config, workspaces: [repo] }, null, 2));
  await session.relaunch();
  panel = await openSidePanel(session.browser);
  await uiRequest(panel, 'settings/set', {
    provider: {
      kind: 'openai',
      apiKey: 'sk-e2e',
      model: 'gpt-4.1',
      baseURL: 'http://127.0.0.1:9/v1',
    },
  });
  await waitForTools(panel, ['filesystem__read_text_file', 'memory__read_graph']);
});

it("shows a machine client's grant on the consent card: tokens with no sign-in", async () => {
  const card = consentCard(panel, SERVER);
  await card.waitFor();
  expect(await cardField(card, 'Signs in as OAuth client').textContent()).toContain(
    'svc-switchyard',
  );
  expect(await cardField(card, 'Gets tokens with no sign-in').textContent()).toBe(
    'client_credentials with client secret, issuer "https://idp.internal.example.com", scopes ["inventory.read"]',
  );
  // The card's fields scroll inside it: show the grant's row, which a reviewer looks for.
  await cardField(card, 'Gets tokens with no sign-in').scrollIntoViewIfNeeded();
  await screenshotSidePanelModes(panel, 'sidepanel-consent-machine-client');
});
