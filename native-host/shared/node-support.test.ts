import { describe, expect, it } from 'vitest';
import { HostRuntimeSchema } from '../../protocol/hello';
import { NODE_END_OF_LIFE, endOfLifeNote, hostRuntime, nodeSupport } from './node-support';

const on = (day: string): Date => new Date(`${day}T12:00:00Z`);

describe('nodeSupport', () => {
  it.each<[string, string, { ended: boolean; endOfLife: string | null; suggested: number | null }]>(
    [
      // The last maintained day is still maintained; the day after is not.
      ['20.20.2', '2026-04-30', { ended: false, endOfLife: '2026-04-30', suggested: 20 }],
      ['20.20.2', '2026-05-01', { ended: true, endOfLife: '2026-04-30', suggested: 22 }],
      ['v20.19.0', '2026-12-07', { ended: true, endOfLife: '2026-04-30', suggested: 22 }],
      ['22.23.3', '2026-12-07', { ended: false, endOfLife: '2027-04-30', suggested: 22 }],
      ['22.23.3', '2027-05-01', { ended: true, endOfLife: '2027-04-30', suggested: 24 }],
      // Odd lines live six months; the suggestion is always a long-term-support line.
      ['25.1.0', '2026-12-07', { ended: true, endOfLife: '2026-06-01', suggested: 22 }],
      ['26.10.0', '2026-12-07', { ended: false, endOfLife: '2029-04-30', suggested: 22 }],
      // A line newer than the table is taken as maintained.
      ['28.0.0', '2028-06-01', { ended: false, endOfLife: null, suggested: 26 }],
      // Past every date the table knows: nothing to suggest.
      ['26.10.0', '2030-01-01', { ended: true, endOfLife: '2029-04-30', suggested: null }],
    ],
  )('%s on %s', (version, day, expected) => {
    expect(nodeSupport(version, on(day))).toMatchObject(expected);
  });

  it.each(['', 'node', '20', 'v20.1', 'twenty'])('refuses %j', (version) => {
    expect(nodeSupport(version, on('2026-12-07'))).toBeNull();
  });

  it('reads the version as node --version prints it', () => {
    expect(nodeSupport('v20.20.2\n', on('2026-12-07'))).toMatchObject({
      version: '20.20.2',
      major: 20,
    });
  });

  it('lists only lines the host runs on, each with a real date', () => {
    for (const [line, day] of Object.entries(NODE_END_OF_LIFE)) {
      expect(Number(line)).toBeGreaterThanOrEqual(20);
      expect(new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10)).toBe(day);
    }
  });
});

describe('endOfLifeNote', () => {
  it('says when the line ended, that it gets no fixes, and what to install instead', () => {
    const support = nodeSupport('20.20.2', on('2026-12-07'));
    expect(support && endOfLifeNote(support)).toBe(
      "Node 20.20.2 reached its end of life on 2026-04-30 and gets no more security fixes, yet it runs the host, which reads what servers send. Install Node 22 or later and run 'switchyard install' again with it.",
    );
  });

  it('says nothing of a maintained line or one the table does not know', () => {
    for (const version of ['22.23.3', '26.10.0', '30.0.0']) {
      const support = nodeSupport(version, on('2026-12-07'));
      expect(support && endOfLifeNote(support), version).toBeNull();
    }
  });

  it('asks for a maintained Node when the table knows none', () => {
    const support = nodeSupport('26.10.0', on('2030-01-01'));
    expect(support && endOfLifeNote(support)).toContain('Install a maintained Node and run');
  });
});

describe('hostRuntime', () => {
  it("is what host/hello tells the extension, and passes the protocol's schema", () => {
    for (const [version, expected] of [
      ['20.20.2', { node: '20.20.2', endOfLife: '2026-04-30', ended: true, suggested: 22 }],
      ['v26.10.0', { node: '26.10.0', endOfLife: '2029-04-30', ended: false, suggested: 22 }],
      ['30.1.0', { node: '30.1.0', endOfLife: null, ended: false, suggested: 22 }],
    ] as const) {
      expect(HostRuntimeSchema.parse(hostRuntime(nodeSupport(version, on('2026-12-07'))))).toEqual(
        expected,
      );
    }
    expect(hostRuntime(nodeSupport('node', on('2026-12-07')))).toBeNull();
  });
});
