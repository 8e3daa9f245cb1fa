import { useState } from 'react';
import { errorMessage } from './errors';

export interface AsyncAction {
  /** True from `run` until its task settles. */
  readonly busy: boolean;
  /** The last task's failure as a sentence to show; cleared when the next one starts. */
  readonly error: string | null;
  /** Runs `task`, then `onDone` with its result when it succeeded. */
  readonly run: <T>(task: () => Promise<T>, onDone?: (result: T) => void) => void;
}

/** A button's request to the worker: busy while it runs, its failure shown next to it. */
export function useAsyncAction(): AsyncAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = <T>(task: () => Promise<T>, onDone?: (result: T) => void): void => {
    setBusy(true);
    setError(null);
    task().then(
      (result) => {
        setBusy(false);
        onDone?.(result);
      },
      (reason: unknown) => {
        setBusy(false);
        setError(errorMessage(reason));
      },
    );
  };
  return { busy, error, run };
}
