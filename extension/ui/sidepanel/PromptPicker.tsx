import { useEffect, useId, useRef, useState } from 'react';
import type { Prompt, PromptMessage } from '../../../protocol/resources';
import { Button } from '../common/Button';
import { pageClient } from '../common/page-client';
import { UntrustedText } from '../common/UntrustedText';
import { useAsyncAction } from '../common/use-async-action';
import { VisibleText } from '../common/VisibleText';
import {
  filledArguments,
  filterPrompts,
  missingArguments,
  promptUse,
  type PromptUse,
} from './prompt-use';
import { ArgumentField, useCompletions } from './ArgumentField';
import { PickerCard } from './Picker';
import { SearchList } from './SearchList';

export interface PromptPickerProps {
  /** The active profile: only its servers' prompts exist here. */
  readonly profile: string | undefined;
  /** The prompt's messages, after the user saw them, go into the composer. */
  readonly onUse: (use: PromptUse) => void;
  readonly onClose: () => void;
}

type Step =
  | { readonly kind: 'choose' }
  | { readonly kind: 'fill'; readonly prompt: Prompt }
  | {
      readonly kind: 'preview';
      readonly prompt: Prompt;
      readonly messages: readonly PromptMessage[];
    };

/**
 * `/` in the composer (issue 12): the prompts of the site's servers, then a small form for the
 * chosen one's arguments (with the server's completions), then its messages as the server wrote
 * them, marked as that server's, before anything goes into the message box.
 */
export function PromptPicker({ profile, onUse, onClose }: PromptPickerProps) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  return (
    <PickerCard
      title={step.kind === 'choose' ? 'Use a prompt' : `/${step.prompt.server}:${step.prompt.name}`}
      onClose={onClose}
    >
      {step.kind === 'choose' ? (
        <ChoosePrompt
          profile={profile}
          onChoose={(prompt) => {
            setStep({ kind: 'fill', prompt });
          }}
        />
      ) : step.kind === 'fill' ? (
        <FillPrompt
          prompt={step.prompt}
          profile={profile}
          onPreview={(messages) => {
            setStep({ kind: 'preview', prompt: step.prompt, messages });
          }}
        />
      ) : (
        <PreviewPrompt
          prompt={step.prompt}
          messages={step.messages}
          onUse={onUse}
          onBack={() => {
            setStep({ kind: 'fill', prompt: step.prompt });
          }}
        />
      )}
    </PickerCard>
  );
}

function ChoosePrompt({
  profile,
  onChoose,
}: {
  readonly profile: string | undefined;
  readonly onChoose: (prompt: Prompt) => void;
}) {
  return (
    <SearchList<Prompt>
      noun="prompts"
      listLabel="Prompts"
      placeholder="server:prompt"
      listKey={profile}
      list={async () => {
        const result = await pageClient().host(
          'prompts/list',
          profile === undefined ? {} : { profile },
        );
        return { items: result.prompts, problems: result.problems };
      }}
      // A server that starts or stops while the picker is open shows up, or goes.
      relistOn={(event) =>
        event.type === 'host' && event.method === 'notifications/servers/changed'
      }
      filter={filterPrompts}
      keyOf={(prompt) => `${prompt.server}\u0000${prompt.name}`}
      render={(prompt) => (
        <>
          <span className="sy-picker__name">
            /<VisibleText text={`${prompt.server}:${prompt.name}`} />
          </span>
          {prompt.description === undefined ? null : (
            <span className="sy-picker__detail">
              <VisibleText text={prompt.description} />
            </span>
          )}
        </>
      )}
      onChoose={onChoose}
    />
  );
}

function FillPrompt({
  prompt,
  profile,
  onPreview,
}: {
  readonly prompt: Prompt;
  readonly profile: string | undefined;
  readonly onPreview: (messages: readonly PromptMessage[]) => void;
}) {
  const [values, setValues] = useState<Readonly<Record<string, string>>>({});
  const { suggestions, complete } = useCompletions(
    prompt.server,
    { type: 'ref/prompt', name: prompt.name },
    profile,
  );
  const [missing, setMissing] = useState<readonly string[]>([]);
  const { busy, error, run } = useAsyncAction();
  const first = useRef<HTMLInputElement>(null);
  const base = useId();

  useEffect(() => {
    first.current?.focus();
  }, []);

  const preview = (): void => {
    const gaps = missingArguments(prompt, values);
    setMissing(gaps);
    if (gaps.length > 0) return;
    run(
      () =>
        pageClient().host('prompts/get', {
          server: prompt.server,
          name: prompt.name,
          arguments: filledArguments(values),
          ...(profile === undefined ? {} : { profile }),
        }),
      (result) => {
        onPreview(result.messages);
      },
    );
  };

  return (
    <form
      className="sy-question__form"
      onSubmit={(event) => {
        event.preventDefault();
        preview();
      }}
    >
      {prompt.description === undefined ? null : <UntrustedText text={prompt.description} />}
      {prompt.arguments.length === 0 ? (
        <p className="sy-field-note">This prompt takes no arguments.</p>
      ) : null}
      {prompt.arguments.map((argument, index) => (
        <ArgumentField
          key={argument.name}
          id={`${base}-${index}`}
          name={argument.name}
          label={argument.title ?? argument.name}
          description={argument.description}
          required={argument.required === true}
          value={values[argument.name] ?? ''}
          missing={missing.includes(argument.name)}
          suggestions={suggestions[argument.name] ?? []}
          inputRef={index === 0 ? first : undefined}
          onFocus={() => {
            complete(argument.name, values[argument.name] ?? '', filledArguments(values));
          }}
          onChange={(value) => {
            const next = { ...values, [argument.name]: value };
            setValues(next);
            complete(argument.name, value, filledArguments(next));
          }}
        />
      ))}
      {error === null ? null : (
        <p className="sy-error-text" role="alert">
          {error}
        </p>
      )}
      <div className="sy-card__actions">
        <Button type="submit" variant="primary" disabled={busy}>
          Preview
        </Button>
      </div>
    </form>
  );
}

function PreviewPrompt({
  prompt,
  messages,
  onUse,
  onBack,
}: {
  readonly prompt: Prompt;
  readonly messages: readonly PromptMessage[];
  readonly onUse: (use: PromptUse) => void;
  readonly onBack: () => void;
}) {
  const use = promptUse(prompt.server, messages);
  return (
    <>
      <p className="sy-field-note">
        Written by <code>{prompt.server}</code>: read it before you use it. It goes into your
        message box, where you can change it.
      </p>
      <ol className="sy-prompt-preview" aria-label={`Messages from ${prompt.server}`}>
        {messages.map((message, index) => (
          <li key={index} className="sy-prompt-preview__message">
            <p className="sy-tool__heading">
              From {prompt.server} · {message.role}
            </p>
            {message.content.type === 'text' ? (
              <UntrustedText text={message.content.text} />
            ) : message.content.type === 'resource' || message.content.type === 'resource_link' ? (
              <p>
                Attaches{' '}
                <code>
                  <VisibleText
                    text={
                      message.content.type === 'resource'
                        ? message.content.resource.uri
                        : message.content.uri
                    }
                  />
                </code>
              </p>
            ) : (
              <p className="sy-field-note">
                An {message.content.type} block, not used in the message.
              </p>
            )}
          </li>
        ))}
      </ol>
      <div className="sy-card__actions">
        <Button
          variant="primary"
          disabled={use.text === '' && use.attachments.length === 0}
          onClick={() => {
            onUse(use);
          }}
        >
          Use in message
        </Button>
        <Button onClick={onBack}>Back</Button>
      </div>
    </>
  );
}
