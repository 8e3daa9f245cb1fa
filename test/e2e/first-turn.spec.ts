import { afterAll, expect, it } from 'vitest';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { uiRequest, useScriptedModel, waitForText } from './support/ui';

/*
 * A message sent the moment the browser starts, while the host is still handshaking and its
 * servers are starting, must be offered the servers' tools: otherwise the model answers as if they
 * did not exist (the run waits, bounded, for servers still starting).
 */

const session = useSwitchyard({ launch: false });
const model = await startScriptedModel([]);
afterAll(async () => {
  await model.close();
});

it('the first message after launch is offered the MCP tools', async () => {
  const browser = await session.relaunch();
  const panel = await browser.openExtensionPage('sidepanel.html');
  await useScriptedModel(panel, model);
  model.script({ kind: 'text', text: 'ready' });
  await uiRequest(panel, 'chat/send', { text: 'hi' });
  const request = await model.request(0);
  expect(request.tools.filter((name) => name.startsWith('filesystem__')).length).toBeGreaterThan(0);
  expect(request.tools.filter((name) => name.startsWith('memory__')).length).toBeGreaterThan(0);
  await waitForText(panel, 'ready');
});
