import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import type { Session } from './session';
import { openSidePanel, uiRequest, waitForTools } from './ui';

/**
 * The start of the consent journeys (issues 4 and 11): a repository joins after the user's own
 * servers were approved, as a clone does. Its `.mcp.json` names `servers(repo)`, its folder goes
 * into config.json's `workspaces`, the browser starts again, and the side panel opens with a
 * provider set (so it looks as it does in use; no model is asked anything) once the user's own
 * servers have started, so the host has made its launch decisions.
 */
export async function openWithWorkspaceServers(
  session: Session,
  servers: (repo: string) => Record<string, unknown>,
): Promise<{ readonly repo: string; readonly panel: Page }> {
  const { profile } = session;
  const repo = join(profile.root, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, '.mcp.json'), JSON.stringify({ mcpServers: servers(repo) }));
  const configFile = join(profile.switchyardHome, 'config.json');
  const config = z
    .record(z.string(), z.unknown())
    .parse(JSON.parse(readFileSync(configFile, 'utf8')));
  writeFileSync(configFile, JSON.stringify({ ...config, workspaces: [repo] }, null, 2));
  await session.relaunch();
  const panel = await openSidePanel(session.browser);
  await uiRequest(panel, 'settings/set', {
    provider: {
      kind: 'openai',
      apiKey: 'sk-e2e',
      model: 'gpt-4.1',
      baseURL: 'http://127.0.0.1:9/v1',
    },
  });
  await waitForTools(panel, ['filesystem__read_text_file', 'memory__read_graph']);
  return { repo, panel };
}
