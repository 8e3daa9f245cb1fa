import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { ConversationSchema, type Conversation } from '../../../extension/messaging/conversation';
import type { SwitchyardProfile } from './profile';
import { clickButton, uiRequest } from './ui';

/**
 * What the chat journeys do and read in the side panel, by accessible role and name as a user
 * (or a screen reader) finds them: the message box, the conversation log, the approval and launch
 * consent cards. And two things a user cannot see but a test must check: the worker's own
 * conversation (is every tool call answered?) and the host's config.json (what "Always" wrote).
 */

/** The conversation, a `log` region. */
export function conversationLog(panel: Page): Locator {
  return panel.getByRole('log', { name: 'Conversation' });
}

/** Types `text` into the message box and presses Send. */
export async function sendMessage(panel: Page, text: string): Promise<void> {
  await panel.getByRole('textbox', { name: 'Message' }).fill(text);
  await clickButton(panel, 'Send');
}

/** The approval card for a call of `exposedName` (an `article` titled "Allow <name>?"). */
export function approvalCard(panel: Page, exposedName: string): Locator {
  return panel.getByRole('article', { name: `Allow ${exposedName}?` });
}

/** The launch consent card for a server (an `article` titled `Start server “<name>”?`). */
export function consentCard(panel: Page, server: string): Locator {
  return panel.getByRole('article', { name: `Start server “${server}”?` });
}

/** The value of a card's field: the `dd` right after the `dt` whose text is `term`. */
export function cardField(card: Locator, term: string): Locator {
  return card.locator(`dt:text-is("${term}") + dd`);
}

/** The transcript's row for a tool call (its summary line reads "<name> <status>"). */
export function toolRow(panel: Page, exposedName: string): Locator {
  return conversationLog(panel).locator('summary', { hasText: exposedName });
}

/** Starts a new chat and waits until the panel shows the empty conversation. */
export async function newChat(panel: Page): Promise<void> {
  await clickButton(panel, 'New Chat');
  await conversationLog(panel)
    .getByText('Ask about the page you are on')
    .waitFor({ state: 'visible' });
}

const SnapshotSchema = z.looseObject({ conversation: ConversationSchema, running: z.boolean() });

/** The worker's conversation as it persists it, and whether a run is going. */
export async function workerConversation(
  panel: Page,
): Promise<{ readonly conversation: Conversation; readonly running: boolean }> {
  return SnapshotSchema.parse(await uiRequest(panel, 'session/snapshot', {}));
}

const ConfigSchema = z.looseObject({
  toolPolicy: z.record(z.string(), z.string()).optional(),
});

/** `toolPolicy` of the profile's config.json, as the host wrote it ({} when absent). */
export function toolPolicy(profile: SwitchyardProfile): Record<string, string> {
  const raw: unknown = JSON.parse(
    readFileSync(join(profile.switchyardHome, 'config.json'), 'utf8'),
  );
  return ConfigSchema.parse(raw).toolPolicy ?? {};
}
