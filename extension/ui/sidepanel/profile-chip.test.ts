import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { ProfileChip } from './ProfileChip';
import { profileChipText, profileGoneText } from './profile-chip';

// The chip must say why a profile is active: a pinned one read as the tab's would mislead.

test.each([
  [
    'matched by the tab',
    {
      id: 'gh',
      name: 'GitHub',
      matchedPattern: 'https://github.com/*',
      url: 'https://github.com/',
    },
    { source: 'https://github.com/*', label: 'Profile GitHub, matched by https://github.com/*' },
  ],
  [
    'the default',
    { id: 'default', name: 'Default', matchedPattern: null, url: null },
    { source: 'default profile', label: 'Profile Default, matched by default profile' },
  ],
  [
    'from the opened conversation',
    { id: 'gh', name: 'GitHub', matchedPattern: null, url: 'https://x.org/', pinned: true },
    { source: 'this conversation', label: 'Profile GitHub, the one this conversation began with' },
  ],
])('%s', (_name, profile, expected) => {
  expect(profileChipText(profile)).toMatchObject(expected);
});

test('a deleted profile is named, with the one the chat goes on with', () => {
  expect(profileGoneText('Work', 'Default')).toBe(
    'This conversation began with the profile “Work”, which has been deleted. It goes on with “Default”, the active tab’s profile.',
  );
  expect(profileGoneText('Work', null)).toMatch(
    /goes on with the profile the active tab selects\.$/,
  );
});

test('connected without a profile, the chip says the model has the built-in tools only', () => {
  const html = renderToStaticMarkup(
    createElement(ProfileChip, { profile: null, connected: true, settled: true }),
  );
  expect(html).toContain('No profile');
  expect(html).toContain('the model has the built-in tools only');
  expect(html).toContain('sy-profile-chip--unknown');
  // Read out as one sentence: a span's aria-label is not, so the sentence is hidden text.
  expect(html).not.toContain('aria-label');
  expect(html).toContain('<span class="sy-sr-only">Profile unknown: ');
  expect(html).toContain('<span class="sy-chip__name" aria-hidden="true">No profile</span>');
  // Not connected, the connection banner says what is wrong; the chip says nothing.
  expect(
    renderToStaticMarkup(
      createElement(ProfileChip, { profile: null, connected: false, settled: false }),
    ),
  ).toBe('');
  // Just connected, before the host's answer: not known yet is not "No profile".
  expect(
    renderToStaticMarkup(
      createElement(ProfileChip, { profile: null, connected: true, settled: false }),
    ),
  ).toBe('');
});
