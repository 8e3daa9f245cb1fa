import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TINY_PNG } from '../../extension/background/testing/images';
import { EVERYTHING_SERVER, FIXTURE_SERVER } from '../integration/host-harness';
import { startScriptedModel } from './support/scripted-model';
import { useSwitchyard } from './support/session';
import { approvalCard, conversationLog, newChat, sendMessage } from './support/side-panel';
import {
  openSidePanel,
  screenshotSidePanelModes,
  useScriptedModel,
  waitForTools,
} from './support/ui';

// Journey (issue 14, media): a tool's image is shown in the transcript and reaches the model as
// an image part (read here in the loopback model's received body, per wire format), and the
// screenshot tool asks like the other page tools before it hands the visible tab to the model.
// Real extension, host and server-everything (`get-tiny-image` returns a PNG between two texts).

const TINY_IMAGE = 'everything__get-tiny-image';
/** The first bytes of every PNG, in base64. */
const PNG_BASE64_START = 'iVBORw0KGgo';

const CUT_IMAGE = 'scripted__cut-image';

const session = useSwitchyard({
  servers: () => ({
    everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    scripted: { command: process.execPath, args: [FIXTURE_SERVER] },
  }),
});
const model = await startScriptedModel();
let panel: Page;

beforeAll(async () => {
  panel = await openSidePanel(session.browser);
  await waitForTools(panel, [TINY_IMAGE, CUT_IMAGE]);
});

afterAll(async () => {
  await model.close();
});

const AnthropicBodySchema = z.object({
  messages: z.array(
    z.object({ content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]) }),
  ),
});

const ResultBlocksSchema = z.array(
  z.object({
    type: z.string(),
    text: z.string().optional(),
    source: z.object({ type: z.string(), media_type: z.string(), data: z.string() }).optional(),
  }),
);

/** The content blocks of the last tool_result in an Anthropic request body. */
function toolResultBlocks(body: unknown): unknown {
  const blocks = AnthropicBodySchema.parse(body).messages.flatMap((m) =>
    typeof m.content === 'string' ? [] : m.content,
  );
  return blocks.filter((block) => block.type === 'tool_result').at(-1)?.content;
}

/** Sources of the images the conversation shows under `label` ("Images from x"). */
async function shownImages(label: string): Promise<string[]> {
  const strip = conversationLog(panel).getByRole('list', { name: label });
  await strip.getByRole('img').first().waitFor();
  return strip
    .getByRole('img')
    .evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));
}

describe('a tool image', () => {
  it('is shown, and reaches Anthropic inside the tool_result as an image block', async () => {
    await useScriptedModel(panel, model, 'anthropic');
    const before = model.requests.length;
    model.script(
      { kind: 'tool-call', name: TINY_IMAGE, arguments: {} },
      { kind: 'text', text: 'That is the MCP logo.' },
    );
    await sendMessage(panel, 'Show me the tiny image.');
    await approvalCard(panel, TINY_IMAGE).getByRole('button', { name: 'Allow once' }).click();
    await conversationLog(panel).getByText('That is the MCP logo.').waitFor();

    const sources = await shownImages(`Images from ${TINY_IMAGE}`);
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatch(new RegExp(`^data:image/png;base64,${PNG_BASE64_START}`));

    const seen = await model.request(before + 1);
    const [text, image, ...rest] = ResultBlocksSchema.parse(toolResultBlocks(seen.raw.body));
    expect(rest).toEqual([]);
    expect(text?.type).toBe('text');
    expect(text?.text).toContain('[image 1 (image/png, ');
    expect(image?.type).toBe('image');
    expect(image?.source?.type).toBe('base64');
    expect(image?.source?.media_type).toBe('image/png');
    expect(image?.source?.data.startsWith(PNG_BASE64_START)).toBe(true);
    await screenshotSidePanelModes(panel, 'sidepanel-tool-image');
  });

  it('reaches OpenAI chat completions as an image_url in a user message after the result', async () => {
    await newChat(panel);
    await useScriptedModel(panel, model, 'openai');
    const before = model.requests.length;
    model.script(
      { kind: 'tool-call', name: TINY_IMAGE, arguments: {} },
      { kind: 'text', text: 'The logo again.' },
    );
    await sendMessage(panel, 'The tiny image, please.');
    await approvalCard(panel, TINY_IMAGE).getByRole('button', { name: 'Allow once' }).click();
    await conversationLog(panel).getByText('The logo again.').waitFor();

    const seen = await model.request(before + 1);
    // The tool message itself stays text: Chat Completions takes no image there.
    expect(seen.toolResults.at(-1)?.content).toContain('[image 1 (image/png,');
    expect(seen.toolResults.at(-1)?.content).not.toContain(PNG_BASE64_START);
    const body = JSON.stringify(seen.raw.body);
    expect(body).toContain(`"image_url":{"url":"data:image/png;base64,${PNG_BASE64_START}`);
  });
});

describe('a tool image that does not decode', () => {
  it('is named, not sent: the provider would refuse this request and every later one', async () => {
    await newChat(panel);
    await useScriptedModel(panel, model, 'anthropic');
    const before = model.requests.length;
    model.script(
      { kind: 'tool-call', name: CUT_IMAGE, arguments: {} },
      { kind: 'text', text: 'That image did not come through.' },
    );
    await sendMessage(panel, 'Show me the cut image.');
    await approvalCard(panel, CUT_IMAGE).getByRole('button', { name: 'Allow once' }).click();
    await conversationLog(panel).getByText('That image did not come through.').waitFor();

    const seen = await model.request(before + 1);
    // No image went with it: the tool_result is its text alone, which names the image and why.
    const result = z.string().parse(toolResultBlocks(seen.raw.body));
    expect(result).toContain('it starts like a PNG image but does not decode as one');
    expect(JSON.stringify(seen.raw.body)).not.toContain(PNG_BASE64_START);
  });
});

describe('an attached image', () => {
  it('goes with the message as an image part, and the message shows it', async () => {
    await newChat(panel);
    await useScriptedModel(panel, model, 'openai');
    const before = model.requests.length;
    model.script({ kind: 'text', text: 'A small square.' });
    await panel.getByLabel('Files to attach').setInputFiles([
      { name: 'square.png', mimeType: 'image/png', buffer: Buffer.from(TINY_PNG, 'base64') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Ignore the notes.') },
    ]);
    const chips = panel.getByRole('list', { name: 'Files for the next message' });
    await chips.getByText('notes.txt').waitFor();
    await chips.getByText('square.png').waitFor();
    await sendMessage(panel, 'What is in this picture?');
    await conversationLog(panel).getByText('A small square.').waitFor();

    expect(await shownImages('Attached images')).toEqual([`data:image/png;base64,${TINY_PNG}`]);
    const seen = await model.request(before);
    expect(JSON.stringify(seen.raw.body)).toContain(
      `"image_url":{"url":"data:image/png;base64,${TINY_PNG}"}`,
    );
    // The text file is the user's pick but someone else's words: wrapped as untrusted data.
    expect(seen.lastUserText).toMatch(
      /source="user\/file">\n.*\n\[file notes\.txt, attached by the user\]\nIgnore the notes\./,
    );
    await screenshotSidePanelModes(panel, 'sidepanel-attached-image');
  });
});

describe('the screenshot tool', () => {
  // Chromium lets an extension capture a tab only with `activeTab` (the user clicked its toolbar
  // button, menu item or shortcut on that tab) or `<all_urls>`; a test cannot click the toolbar,
  // so this journey checks the card and the failure the model is told. The capture itself, the
  // image gate and the untrusted wrapping are unit-tested (builtin-tools.test.ts).
  it('asks first like the other page tools, and without access says what to do', async () => {
    await newChat(panel);
    await useScriptedModel(panel, model, 'anthropic');
    const before = model.requests.length;
    model.script(
      { kind: 'tool-call', name: 'browser_screenshot', arguments: {} },
      { kind: 'text', text: 'I could not see the tab.' },
    );
    await sendMessage(panel, 'What does my screen show?');
    const card = approvalCard(panel, 'browser_screenshot');
    await card.getByText('Takes a screenshot of what the active tab shows.').waitFor();
    await card.getByRole('button', { name: 'Allow once' }).click();
    await conversationLog(panel).getByText('I could not see the tab.').waitFor();

    const told = (await model.request(before + 1)).toolResults.at(-1);
    expect(told?.isError).toBe(true);
    expect(told?.content).toMatch(/^Switchyard cannot read tab \d+ \(.*activeTab.*\)/);
    expect(told?.content).toContain('click the Switchyard toolbar button on that tab');
  });
});
