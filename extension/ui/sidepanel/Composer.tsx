import { useEffect, useRef, useState, type RefObject } from 'react';
import { onProposedMessage } from './app-messages';
import type { Resource } from '../../../protocol/resources';
import type { AttachmentRef } from '../../messaging/conversation';
import { Button } from '../common/Button';
import { VisibleText } from '../common/VisibleText';
import { composerKeyAction, draftAfterSend, sendCheck, takesProposal } from './composer';
import { ContextPicker } from './ContextPicker';
import { AttachIcon, ContextIcon } from './ComposerIcons';
import { ModelPicker } from './ModelPicker';
import { modelLabelParts, type ModelInView } from './model-picker';
import { PromptPicker } from './PromptPicker';
import type { PromptUse } from './prompt-use';
import { startsMention } from './context-picker';
import type { ComposerFile } from '../../messaging/images';
import { MAX_FILES_PER_MESSAGE } from '../../messaging/images';
import { ATTACH_ACCEPT, readComposerFile, selectionFile, sortFile } from './composer-files';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';

export interface ComposerProps {
  /** A reply is running or a message is on its way. */
  readonly busy: boolean;
  readonly running: boolean;
  readonly hasProvider: boolean;
  /** The active profile, whose servers' resources can be attached. */
  readonly profile: string | undefined;
  /** Resolves true when the worker took the message (the text is cleared then). */
  readonly onSend: (
    text: string,
    attachments: readonly AttachmentRef[],
    files: readonly ComposerFile[],
  ) => Promise<boolean>;
  readonly onStop: () => void;
  /** The message box, for the panel to return focus to after a card is answered (issue 14). */
  readonly boxRef?: RefObject<HTMLTextAreaElement | null>;
  /** The provider and model this conversation uses; null when none is set up (issue 14). */
  readonly model: ModelInView | null;
  /** The model for this conversation from its next request on; null: the default. */
  readonly onChooseModel: (model: string | null) => void;
}

/** Most resources one message carries. */
export const MAX_ATTACHMENTS = 8;

/**
 * The message box: Enter sends, Shift+Enter adds a line; Stop while a reply runs. "Add context"
 * (or `@` at the start of a word) opens the resources of the site's servers; each picked one is a
 * chip on the next message until it is sent or removed. `/` in an empty box opens the servers'
 * prompts; a chosen one's text lands in the box, to be read and edited before sending.
 */
export function Composer({
  busy,
  running,
  hasProvider,
  profile,
  onSend,
  onStop,
  boxRef,
  model,
  onChooseModel,
}: ComposerProps) {
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<readonly AttachmentRef[]>([]);
  /** Images and text files attached, pasted or dropped (issue 14), and why one was not taken. */
  const [files, setFiles] = useState<readonly ComposerFile[]>([]);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const filePicker = useRef<HTMLInputElement>(null);
  const addFiles = (list: readonly File[]): void => {
    setFileProblem(null);
    for (const file of list) {
      const sorted = sortFile(file);
      if (sorted.kind === 'refused') {
        setFileProblem(sorted.reason);
        continue;
      }
      readComposerFile(file, sorted.kind).then(
        (read) => {
          setFiles((previous) =>
            previous.length >= MAX_FILES_PER_MESSAGE ? previous : [...previous, read],
          );
        },
        () => {
          setFileProblem(`${file.name} could not be read.`);
        },
      );
    }
  };
  /**
   * The open picker: resources (where the `@` that opened it is; null: opened by the button), or
   * prompts (opened by `/` in an empty box).
   */
  const [picker, setPicker] = useState<
    | { readonly kind: 'context'; readonly at: number | null }
    | { readonly kind: 'prompt' }
    | { readonly kind: 'model' }
    | null
  >(null);
  const ownBox = useRef<HTMLTextAreaElement>(null);
  const box = boxRef ?? ownBox;
  /** The MCP App whose message is in the box, until the user edits or sends it. */
  const [fromApp, setFromApp] = useState<string | null>(null);
  /** The MCP App whose message was left out because the box held a draft. */
  const [leftOut, setLeftOut] = useState<string | null>(null);
  const current = useRef(text);
  current.current = text;
  useEffect(
    () =>
      onProposedMessage(({ server, text: proposed }) => {
        if (!takesProposal(current.current)) {
          setLeftOut(server);
          return false;
        }
        setText(proposed);
        setFromApp(server);
        setLeftOut(null);
        box.current?.focus();
        return true;
      }),
    [],
  );
  const check = sendCheck({
    text,
    busy,
    hasProvider,
    attached: attachments.length + files.length,
  });
  const modelParts = modelLabelParts(model?.model ?? '');
  const send = (): void => {
    if (!check.ok) return;
    void onSend(check.text, attachments, files).then((accepted) => {
      if (accepted) {
        // What was added while the message was on its way stays for the next one.
        setText((now) => draftAfterSend(now, text));
        setAttachments((now) => now.filter((a) => !attachments.includes(a)));
        setFiles((now) => now.filter((f) => !files.includes(f)));
        setFromApp(null);
        setLeftOut(null);
      }
    });
  };
  const close = (): void => {
    setPicker(null);
    box.current?.focus();
  };
  const pick = (resource: Resource): void => {
    const at = picker?.kind === 'context' ? picker.at : null;
    // The `@` that opened the picker stands for the resource now: take it out of the text.
    if (at !== null && text[at] === '@') setText(text.slice(0, at) + text.slice(at + 1));
    setAttachments((previous) =>
      previous.some((a) => a.server === resource.server && a.uri === resource.uri) ||
      previous.length >= MAX_ATTACHMENTS
        ? previous
        : [
            ...previous,
            { server: resource.server, uri: resource.uri, name: resource.title ?? resource.name },
          ],
    );
    close();
  };
  /** The page's selection, read by the worker like browser_get_selection (issue 14). */
  const addSelection = (): void => {
    setFileProblem(null);
    pageClient()
      .request('page/selection', {})
      .then(
        (answer) => {
          const sorted = selectionFile(answer);
          if ('problem' in sorted) setFileProblem(sorted.problem);
          else {
            setFiles((previous) =>
              previous.length >= MAX_FILES_PER_MESSAGE ? previous : [...previous, sorted.file],
            );
          }
        },
        (error: unknown) => {
          setFileProblem(errorMessage(error));
        },
      );
    close();
  };
  const applyPrompt = (use: PromptUse): void => {
    // The `/` that opened the picker is replaced by the prompt's text, for the user to edit.
    setText(use.text);
    setAttachments((previous) => {
      const next = [...previous];
      for (const attachment of use.attachments) {
        if (next.length >= MAX_ATTACHMENTS) break;
        if (!next.some((a) => a.server === attachment.server && a.uri === attachment.uri)) {
          next.push(attachment);
        }
      }
      return next;
    });
    close();
  };
  // The pickers sit outside the form: the prompt picker has a form of its own, and forms do not nest.
  return (
    <>
      {picker?.kind === 'context' ? (
        <ContextPicker profile={profile} onPick={pick} onClose={close} onSelection={addSelection} />
      ) : null}
      {picker?.kind === 'prompt' ? (
        <PromptPicker profile={profile} onUse={applyPrompt} onClose={close} />
      ) : null}
      {picker?.kind === 'model' && model !== null ? (
        <ModelPicker
          view={model}
          onChoose={(chosen) => {
            onChooseModel(chosen);
            close();
          }}
          onClose={close}
        />
      ) : null}
      <form
        className="sy-composer"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
        onDragOver={(event) => {
          if (event.dataTransfer.types.includes('Files')) event.preventDefault();
        }}
        onDrop={(event) => {
          if (event.dataTransfer.files.length === 0) return;
          event.preventDefault();
          addFiles([...event.dataTransfer.files]);
        }}
      >
        {fromApp === null ? null : (
          <p className="sy-composer__from" role="status">
            From the <VisibleText text={fromApp} /> app: read it before you send it.
          </p>
        )}
        {leftOut === null ? null : (
          <p className="sy-composer__from" role="status">
            The <VisibleText text={leftOut} /> app proposed a message; your draft was kept. Empty
            the box to take the app&apos;s next one.
          </p>
        )}
        {attachments.length === 0 ? null : (
          <ul className="sy-chips" aria-label="Attached to the next message">
            {attachments.map((attachment) => (
              <li key={`${attachment.server}\u0000${attachment.uri}`} className="sy-chip">
                <span className="sy-chip__label">
                  <VisibleText text={attachment.name} />
                  <span className="sy-chip__server"> · {attachment.server}</span>
                </span>
                <button
                  type="button"
                  className="sy-chip__remove"
                  aria-label={`Remove ${attachment.name}`}
                  onClick={() => {
                    setAttachments((previous) => previous.filter((a) => a !== attachment));
                  }}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        {files.length === 0 ? null : (
          <ul className="sy-chips" aria-label="Files for the next message">
            {files.map((file, index) => (
              <li key={index} className="sy-chip">
                <span className="sy-chip__label">
                  <VisibleText text={file.name} />
                  <span className="sy-chip__server"> · {file.kind}</span>
                </span>
                <button
                  type="button"
                  className="sy-chip__remove"
                  aria-label={`Remove ${file.name}`}
                  onClick={() => {
                    setFiles((previous) => previous.filter((f) => f !== file));
                  }}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        {fileProblem === null ? null : (
          <p className="sy-error-text" role="alert">
            <VisibleText text={fileProblem} />
          </p>
        )}
        <textarea
          ref={box}
          onPaste={(event) => {
            // Pasted images (a screenshot from the clipboard) become files; pasted text stays text.
            if (event.clipboardData.files.length === 0) return;
            event.preventDefault();
            addFiles([...event.clipboardData.files]);
          }}
          aria-label="Message"
          placeholder="Ask about this page, or use your tools… (@ attaches a resource, / a prompt)"
          rows={3}
          value={text}
          onChange={(event) => {
            const next = event.currentTarget.value;
            const caret = event.currentTarget.selectionStart;
            if (next.length === text.length + 1 && startsMention(next, caret)) {
              setPicker({ kind: 'context', at: caret - 1 });
            } else if (text === '' && next === '/') {
              setPicker({ kind: 'prompt' });
            }
            setText(next);
          }}
          onKeyDown={(event) => {
            const action = composerKeyAction({
              key: event.key,
              shiftKey: event.shiftKey,
              isComposing: event.nativeEvent.isComposing,
            });
            if (action === 'send') {
              event.preventDefault();
              send();
            }
          }}
        />
        <div className="sy-composer__row">
          <Button
            size="small"
            variant="quiet"
            aria-expanded={picker?.kind === 'context'}
            className="sy-composer__action"
            title="Add context (or type @)"
            onClick={() => {
              if (picker?.kind === 'context') close();
              else setPicker({ kind: 'context', at: null });
            }}
          >
            <ContextIcon />
            <span className="sy-composer__label">Add context</span>
          </Button>
          {model === null ? null : (
            <Button
              size="small"
              variant="quiet"
              className="sy-model-button"
              aria-expanded={picker?.kind === 'model'}
              aria-label={`Model: ${model.provider} ${model.model}. Change the model for this chat`}
              title={`${model.provider} · ${model.model}`}
              onClick={() => {
                if (picker?.kind === 'model') close();
                else setPicker({ kind: 'model' });
              }}
            >
              <span className="sy-model-button__provider">{model.provider} · </span>
              <span className="sy-model-button__model">
                <span className="sy-model-button__head">{modelParts.head}</span>
                <span className="sy-model-button__tail">{modelParts.tail}</span>
              </span>
            </Button>
          )}
          <Button
            size="small"
            variant="quiet"
            className="sy-composer__action"
            title="Attach file (images, text)"
            onClick={() => {
              filePicker.current?.click();
            }}
          >
            <AttachIcon />
            <span className="sy-composer__label">Attach file</span>
          </Button>
          <input
            ref={filePicker}
            type="file"
            multiple
            hidden
            accept={ATTACH_ACCEPT}
            aria-label="Files to attach"
            onChange={(event) => {
              addFiles([...(event.currentTarget.files ?? [])]);
              event.currentTarget.value = '';
            }}
          />
          <span className="sy-hint" aria-live="polite">
            {check.ok ? 'Enter to send, Shift+Enter for a new line' : (check.reason ?? '')}
          </span>
          {running ? (
            <Button variant="danger" onClick={onStop}>
              Stop
            </Button>
          ) : null}
          <Button type="submit" variant="primary" disabled={!check.ok}>
            Send
          </Button>
        </div>
      </form>
    </>
  );
}
