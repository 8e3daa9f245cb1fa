import type { HistorySaveProblem } from '../../messaging/history';

/**
 * What the panel says when the conversations could not be saved (issue 14): what failed, what it
 * means for the chat on screen, and what to do. Pure, so the words are tested without a DOM.
 */
export interface SaveProblemText {
  readonly title: string;
  readonly body: string;
  /** The next step, as a sentence. */
  readonly advice: string;
}

export function saveProblemText(problem: HistorySaveProblem): SaveProblemText {
  const onScreen = problem.currentUnsaved
    ? 'This conversation is not saved. It stays on screen, and Switchyard keeps trying with each new message, but it will be lost if the browser closes before a save succeeds.'
    : 'The conversation on screen is saved, but a change to the history (a rename, a deletion) is not.';
  switch (problem.kind) {
    case 'quota':
      return {
        title: "Not saved: the browser's storage for Switchyard is full",
        body: onScreen,
        advice:
          'Delete old conversations in History (images take the most room), or lower “Conversations to keep” in Options › Conversation history; the next message is then saved with it.',
      };
    case 'other':
      return {
        title: 'Not saved: the browser refused to store the conversations',
        body: `${onScreen} The browser said: ${problem.detail}`,
        advice: 'Send another message to try again; if this stays, restart the browser.',
      };
  }
}
