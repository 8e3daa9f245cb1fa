import { describe, expect, it } from 'vitest';
import { createStageClock, stageClock } from './stage-clock';

function fakeTime(): { now: () => number; advance: (us: number) => void } {
  let t = 0;
  return {
    now: () => t,
    advance: (us) => {
      t += us;
    },
  };
}

describe('createStageClock', () => {
  it('charges each microsecond to the innermost stage only', () => {
    const time = fakeTime();
    const clock = createStageClock(time.now);
    clock.enter('frame-in');
    time.advance(10);
    clock.enter('policy');
    time.advance(3);
    clock.enter('forward');
    time.advance(7);
    clock.leave();
    time.advance(2);
    clock.leave();
    time.advance(5);
    clock.leave();
    const { us, entries } = clock.totals();
    expect(us).toMatchObject({ 'frame-in': 15, policy: 5, forward: 7, response: 0 });
    expect(entries).toMatchObject({ 'frame-in': 1, policy: 1, forward: 1, audit: 0 });
  });

  it('charges nothing between stages and adds up re-entered stages', () => {
    const time = fakeTime();
    const clock = createStageClock(time.now);
    for (let i = 0; i < 3; i += 1) {
      time.advance(100); // the event loop, outside any stage
      clock.enter('response');
      time.advance(4);
      clock.leave();
    }
    expect(clock.totals().us.response).toBe(12);
    expect(clock.totals().entries.response).toBe(3);
  });

  it('hands out copies: later stages do not change totals already read', () => {
    const time = fakeTime();
    const clock = createStageClock(time.now);
    const before = clock.totals();
    clock.enter('audit');
    time.advance(9);
    clock.leave();
    expect(before.us.audit).toBe(0);
    expect(clock.totals().us.audit).toBe(9);
  });
});

describe('stageClock', () => {
  it('is off unless SWITCHYARD_STAGE_CLOCK names a file', () => {
    expect(process.env['SWITCHYARD_STAGE_CLOCK']).toBeUndefined();
    expect(stageClock).toBeUndefined();
  });
});
