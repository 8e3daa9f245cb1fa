import { useRef, useState } from 'react';
import { Button } from '../common/Button';
import { ConnectionBanner } from '../common/ConnectionBanner';
import { Notice } from '../common/Notice';
import { ApprovalCard } from './ApprovalCard';
import { AutopilotToggle } from './AutopilotToggle';
import { isBusy } from './chat-state';
import { Composer } from './Composer';
import { ConsentSection } from './ConsentSection';
import { ContextMeterBar } from './ContextMeterBar';
import { HistoryPanel } from './HistoryPanel';
import { ProfileChip } from './ProfileChip';
import { providerProblem } from './provider-status';
import { ProviderNotice } from './ProviderNotice';
import { QuestionSection } from './QuestionSection';
import { SiteAccess } from './SiteAccess';
import { SaveProblemNotice } from './SaveProblemNotice';
import { Transcript } from './Transcript';
import { useCardFocus } from '../common/use-card-focus';
import { useSession } from './use-session';
import { modelInView } from './model-picker';
import { conversationUsage } from './usage-view';

/**
 * The side panel: chat, servers' questions, approvals, launch consents, context meter and the
 * active profile.
 */
export function SidePanel() {
  const { state, actions } = useSession();
  const messages = state.conversation?.messages ?? [];
  const busy = isBusy(state);
  const waiting = state.approvals.length;
  const composerBox = useRef<HTMLTextAreaElement>(null);
  const approvalsRegion = useRef<HTMLElement>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  useCardFocus(
    state.approvals.map((pending) => pending.approvalId),
    approvalsRegion,
    composerBox,
  );

  if (!state.loaded) {
    return (
      <div className="sy-panel sy-panel--loading">
        {state.notices.length === 0 ? (
          <p role="status">Connecting to Switchyard…</p>
        ) : (
          <Notice
            tone="error"
            actions={
              <Button size="small" onClick={actions.reload}>
                Reload
              </Button>
            }
          >
            {state.notices.at(-1)?.message}
          </Notice>
        )}
      </div>
    );
  }

  return (
    <div className="sy-panel">
      <header className="sy-header">
        <h1 className="sy-header__title">Switchyard</h1>
        <ProfileChip
          profile={state.profile}
          connected={state.connection.state === 'connected'}
          settled={state.profileSettled}
        />
        <span className="sy-header__actions">
          <Button
            size="small"
            aria-pressed={historyOpen}
            onClick={() => {
              setHistoryOpen(!historyOpen);
            }}
          >
            History
          </Button>
          <Button
            size="small"
            onClick={() => {
              setHistoryOpen(false);
              actions.newChat();
            }}
          >
            New Chat
          </Button>
        </span>
      </header>

      <div className="sy-top">
        <ConnectionBanner state={state.connection} />
        <ProviderNotice provider={state.provider} />
        <ConsentSection connection={state.connection.state} composer={composerBox} />
        <SiteAccess url={state.profile?.url ?? null} />
        <SaveProblemNotice problem={state.saveProblem} />
      </div>

      {historyOpen ? (
        <HistoryPanel
          onClose={() => {
            setHistoryOpen(false);
            composerBox.current?.focus();
          }}
        />
      ) : (
        <Transcript
          state={state}
          onDismissNotice={actions.dismissNotice}
          onCancelCall={actions.cancelCall}
          onResend={actions.resend}
        />
      )}

      <p className="sy-sr-only" role="status">
        {waiting === 0
          ? ''
          : `${waiting} tool call${waiting === 1 ? '' : 's'} waiting for your approval`}
      </p>
      <QuestionSection connection={state.connection.state} composer={composerBox} />
      {waiting === 0 ? null : (
        <section
          ref={approvalsRegion}
          className="sy-approvals"
          aria-label="Tool calls waiting for your approval"
        >
          {state.approvals.map((pending, position) => (
            <ApprovalCard
              key={pending.approvalId}
              position={position}
              pending={pending}
              messages={messages}
              onResolve={(decision) => actions.resolveApproval(pending.approvalId, decision)}
            />
          ))}
        </section>
      )}

      <footer className="sy-footer">
        <ContextMeterBar meter={state.context} usage={conversationUsage(messages)} />
        <AutopilotToggle on={state.autopilot} onChange={actions.setAutopilot} />
        <Composer
          busy={busy}
          running={state.running}
          hasProvider={providerProblem(state.provider) === null}
          profile={state.profile?.id}
          onSend={actions.send}
          onStop={actions.stop}
          boxRef={composerBox}
          model={modelInView(state.provider, state.conversation?.model)}
          onChooseModel={actions.setModel}
        />
      </footer>
    </div>
  );
}
