import { describe, expect, it } from 'vitest';
import { builtinDefaultProfile, type Profile } from '../../protocol/profiles';
import { profileReport } from './profile-report';

const github: Profile = {
  id: 'github',
  name: 'GitHub',
  match: ['https://github.com/*', 'https://gist.github.com/*'],
  mode: 'read-only',
  tokenBudget: 500,
};

describe('profileReport', () => {
  it('says nothing when only the built-in default exists', () => {
    const report = profileReport([
      { profile: builtinDefaultProfile(), tools: 3, tokens: 300, budget: undefined },
    ]);
    expect(report.text).toBe('');
    expect(report.problems).toEqual([]);
  });

  it('prints headroom per profile and what to disable when one is over', () => {
    const report = profileReport([
      { profile: builtinDefaultProfile(), tools: 12, tokens: 1_133, budget: undefined },
      {
        profile: github,
        tools: 4,
        tokens: 620,
        budget: {
          limit: 500,
          used: 620,
          headroom: -120,
          over: true,
          suggestions: [
            { kind: 'tool', server: 'github', tool: 'github__search_code', saves: 150 },
          ],
        },
      },
    ]);
    expect(report.text.split('\n')).toEqual([
      'Profiles (tokens each sends with every model turn):',
      'PROFILE  MATCHES                    MODE       TOOLS  TOKENS  BUDGET  HEADROOM',
      'default  (every other site)         full       12     1133    -       -',
      'github   https://github.com/* (+1)  read-only  4      620     500     -120  OVER',
      '',
    ]);
    expect(report.problems).toEqual([
      "profile 'github' is over its token budget by 120 tokens (620 of 500): exclude github__search_code (saves 150).",
    ]);
    expect(report.json[1]).toMatchObject({ id: 'github', tokens: 620, budget: { over: true } });
  });
});
