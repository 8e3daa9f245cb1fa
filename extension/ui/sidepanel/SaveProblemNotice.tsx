import type { HistorySaveProblem } from '../../messaging/history';
import { Notice } from '../common/Notice';
import { saveProblemText } from './save-problem-view';

/** The conversations could not be saved (issue 14): said until a save succeeds again. */
export function SaveProblemNotice({ problem }: { readonly problem: HistorySaveProblem | null }) {
  if (problem === null) return null;
  const text = saveProblemText(problem);
  return (
    <Notice tone="error" title={text.title}>
      <p>{text.body}</p>
      <p>{text.advice}</p>
    </Notice>
  );
}
