import { describe, expect, it } from 'vitest';
import { startLayout } from './demo';
import { openedText, ownBrowserText, shown } from './messages';
import { planStart, type StartPlan } from './plan';

// Dangerous direction: telling a branded-Chrome user the extension is loaded when Chrome
// ignored --load-extension; they would look for a toolbar icon that is not there.

const LAYOUT = startLayout('/src/sy');

function browserPlan(executable: string, uid = 1000): Extract<StartPlan, { kind: 'browser' }> {
  const plan = planStart(
    {
      options: { headless: false, dryRun: false, help: false },
      platform: 'linux',
      env: { DISPLAY: ':0', PATH: '/usr/bin' },
      homedir: '/home/ann',
      uid,
      layout: LAYOUT,
    },
    (file) => file === executable,
  );
  if (plan.kind !== 'browser') throw new Error(`no browser plan for ${executable}`);
  return plan;
}

describe('openedText', () => {
  it('Chromium: loaded, then the provider, the chat and the Demo profile', () => {
    const text = openedText(browserPlan('/usr/bin/chromium'), LAYOUT, {
      kind: 'running',
      pid: 1,
    });
    expect(text).toContain('Opened Chromium (/usr/bin/chromium) with Switchyard loaded');
    expect(text).toContain('model provider');
    expect(text).toContain('Alt+Shift+Y');
    expect(text).toContain('Demo profile');
    expect(text).toContain('registered for this profile only');
    // The fallback, should this build ignore the flag after all.
    expect(text).toContain('Load unpacked -> /src/sy/.tmp/extension');
  });

  it('branded Chrome: the Load-unpacked steps, never "loaded"', () => {
    const text = openedText(browserPlan('/usr/bin/google-chrome'), LAYOUT, {
      kind: 'running',
      pid: 1,
    });
    expect(text).not.toMatch(/Switchyard loaded|is loaded/);
    expect(text).toContain('137 and later ignore --load-extension');
    expect(text).toContain('Developer mode');
    expect(text).toContain('"Load unpacked" and choose /src/sy/.tmp/extension');
    expect(text).toContain('SWITCHYARD_BROWSER=');
  });

  it('a browser already open on the profile: says how to pick up the new build', () => {
    const text = openedText(browserPlan('/usr/bin/chromium'), LAYOUT, { kind: 'handed-over' });
    expect(text).toContain('already open on this profile');
    expect(text).toContain('reload icon');
  });

  it('as root: says why the sandbox is off', () => {
    const text = openedText(browserPlan('/usr/bin/chromium', 0), LAYOUT, {
      kind: 'running',
      pid: 1,
    });
    expect(text).toContain('--no-sandbox');
  });
});

describe('ownBrowserText', () => {
  it('names the exact commands and folders', () => {
    const text = ownBrowserText(LAYOUT);
    expect(text).toContain('node dist/host/switchyard.cjs install');
    expect(text).toContain('Load unpacked -> /src/sy/dist/chrome-mv3');
    expect(text).toContain('about:debugging');
    expect(text).toContain('/src/sy/dist/firefox-mv3/manifest.json');
  });
});

describe('shown', () => {
  it.each([
    ['/src/sy/.tmp/demo-home', '.tmp/demo-home'],
    ['/elsewhere/x', '/elsewhere/x'],
    ['/src/sy', '/src/sy'],
    ['/src/sy-other/x', '/src/sy-other/x'],
  ])('%s -> %s', (p, expected) => {
    expect(shown(LAYOUT, p)).toBe(expected);
  });
});
