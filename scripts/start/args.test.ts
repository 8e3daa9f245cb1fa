import { describe, expect, it } from 'vitest';
import { parseStartArgs } from './args';

describe('parseStartArgs', () => {
  it.each([
    [[], { headless: false, dryRun: false, help: false }],
    [['--headless'], { headless: true, dryRun: false, help: false }],
    [['--dry-run'], { headless: false, dryRun: true, help: false }],
    [['-n', '--headless'], { headless: true, dryRun: true, help: false }],
    [['--help'], { headless: false, dryRun: false, help: true }],
  ])('%j', (argv, options) => {
    expect(parseStartArgs(argv)).toEqual({ ok: true, options });
  });

  it('refuses an unknown option and shows the usage', () => {
    const parsed = parseStartArgs(['--browser=chrome']);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toContain("unknown option '--browser=chrome'");
      expect(parsed.message).toContain('SWITCHYARD_BROWSER');
    }
  });
});
