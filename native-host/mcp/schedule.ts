/** Runs `fn` after `ms`; returns a cancel function. Tests inject a manual clock. */
export type ScheduleFn = (fn: () => void, ms: number) => () => void;

/** The production `ScheduleFn`: a timer that never keeps a host alive that is otherwise done. */
export const scheduleUnref: ScheduleFn = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
};
