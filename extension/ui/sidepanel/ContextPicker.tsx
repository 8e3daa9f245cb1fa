import { useEffect, useId, useRef, useState } from 'react';
import type { ListingProblem, Resource, ResourceTemplate } from '../../../protocol/resources';
import { Button } from '../common/Button';
import { pageClient } from '../common/page-client';
import { UntrustedText } from '../common/UntrustedText';
import { useAsyncAction } from '../common/use-async-action';
import { VisibleText } from '../common/VisibleText';
import { ArgumentField, useCompletions } from './ArgumentField';
import {
  blankVariables,
  choiceKey,
  filledName,
  filterContext,
  resourceDetail,
  templateDetail,
  type ContextChoice,
} from './context-picker';
import { PickerCard } from './Picker';
import { SearchList } from './SearchList';

export interface ContextPickerProps {
  /** The active profile: only its servers' resources exist here. */
  readonly profile: string | undefined;
  readonly onPick: (resource: Resource) => void;
  readonly onClose: () => void;
  /** "The page's selection" (issue 14): adds the active tab's selected text to the message. */
  readonly onSelection?: () => void;
}

/**
 * "Add context" (issue 12): the resources and resource templates of the active profile's servers,
 * searched by name, address and description, grouped by server. Picking a resource attaches it
 * to the next message; picking a template first asks for its variables (with the server's
 * completions) and attaches the URI they make. Nothing is read until the message is sent.
 */
export function ContextPicker({ profile, onPick, onClose, onSelection }: ContextPickerProps) {
  const [template, setTemplate] = useState<ResourceTemplate | null>(null);
  return (
    <PickerCard
      title={
        template === null ? 'Add context' : <VisibleText text={template.title ?? template.name} />
      }
      onClose={onClose}
    >
      {template === null && onSelection !== undefined ? (
        <Button size="small" onClick={onSelection}>
          The page’s selection
        </Button>
      ) : null}
      {template === null ? (
        <ChooseContext
          profile={profile}
          onChoose={(choice) => {
            if (choice.kind === 'resource') onPick(choice.resource);
            else setTemplate(choice.template);
          }}
        />
      ) : (
        <FillTemplate
          template={template}
          profile={profile}
          onPick={onPick}
          onBack={() => {
            setTemplate(null);
          }}
        />
      )}
    </PickerCard>
  );
}

function ChooseContext({
  profile,
  onChoose,
}: {
  readonly profile: string | undefined;
  readonly onChoose: (choice: ContextChoice) => void;
}) {
  return (
    <SearchList<ContextChoice>
      noun="resources"
      listLabel="Resources"
      placeholder="Search by name or address"
      listKey={profile}
      list={async () => {
        const scope = profile === undefined ? {} : { profile };
        const client = pageClient();
        const [resources, templates] = await Promise.all([
          client.host('resources/list', scope),
          client.host('resources/templates/list', scope),
        ]);
        return {
          items: [
            ...resources.resources.map((resource) => ({ kind: 'resource' as const, resource })),
            ...templates.resourceTemplates.map((t) => ({ kind: 'template' as const, template: t })),
          ],
          problems: mergeProblems(resources.problems, templates.problems),
        };
      }}
      // A server that starts, stops or changes its resources while the picker is open shows up.
      relistOn={(event) => event.type === 'host' && event.method !== 'notifications/tools/changed'}
      filter={filterContext}
      keyOf={choiceKey}
      render={(choice) =>
        choice.kind === 'resource' ? (
          <>
            <span className="sy-picker__name">
              <VisibleText text={choice.resource.title ?? choice.resource.name} />
            </span>
            <span className="sy-picker__detail">
              <VisibleText text={resourceDetail(choice.resource)} />
            </span>
          </>
        ) : (
          <>
            <span className="sy-picker__name">
              <VisibleText text={choice.template.title ?? choice.template.name} />
              <span className="sy-picker__badge"> · fill in</span>
            </span>
            <span className="sy-picker__detail">
              <VisibleText text={templateDetail(choice.template)} />
            </span>
          </>
        )
      }
      onChoose={onChoose}
    />
  );
}

/** One line per server whose listing failed, though both listings may name it. */
function mergeProblems(
  first: readonly ListingProblem[],
  second: readonly ListingProblem[],
): ListingProblem[] {
  const merged = [...first];
  for (const problem of second) {
    if (!merged.some((p) => p.server === problem.server && p.message === problem.message)) {
      merged.push(problem);
    }
  }
  return merged;
}

function FillTemplate({
  template,
  profile,
  onPick,
  onBack,
}: {
  readonly template: ResourceTemplate;
  readonly profile: string | undefined;
  readonly onPick: (resource: Resource) => void;
  readonly onBack: () => void;
}) {
  const [values, setValues] = useState<Readonly<Record<string, string>>>({});
  const [missing, setMissing] = useState<readonly string[]>([]);
  const { suggestions, complete } = useCompletions(
    template.server,
    { type: 'ref/resource', uri: template.uriTemplate },
    profile,
  );
  const { busy, error, run } = useAsyncAction();
  const first = useRef<HTMLInputElement>(null);
  const base = useId();

  useEffect(() => {
    first.current?.focus();
  }, []);

  const trimmed = (from: Readonly<Record<string, string>>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(from)
        .map(([name, value]) => [name, value.trim()] as const)
        .filter(([, value]) => value !== ''),
    );
  const attach = (): void => {
    const gaps = blankVariables(template, values);
    setMissing(gaps);
    if (gaps.length > 0) return;
    run(
      () =>
        pageClient().host('resources/templates/expand', {
          uriTemplate: template.uriTemplate,
          arguments: trimmed(values),
        }),
      ({ uri }) => {
        onPick({
          server: template.server,
          uri,
          name: filledName(template, values),
          ...(template.mimeType === undefined ? {} : { mimeType: template.mimeType }),
        });
      },
    );
  };

  return (
    <form
      className="sy-question__form"
      onSubmit={(event) => {
        event.preventDefault();
        attach();
      }}
    >
      <p className="sy-field-note">
        From <code>{template.server}</code>: <VisibleText text={template.uriTemplate} />
      </p>
      {template.description === undefined ? null : <UntrustedText text={template.description} />}
      {template.variables.length === 0 ? (
        <p className="sy-field-note">This template has nothing to fill in.</p>
      ) : null}
      {template.variables.map((name, index) => (
        <ArgumentField
          key={name}
          id={`${base}-${index}`}
          name={name}
          label={name}
          required
          value={values[name] ?? ''}
          missing={missing.includes(name)}
          suggestions={suggestions[name] ?? []}
          inputRef={index === 0 ? first : undefined}
          onFocus={() => {
            complete(name, values[name] ?? '', trimmed(values));
          }}
          onChange={(value) => {
            const next = { ...values, [name]: value };
            setValues(next);
            complete(name, value, trimmed(next));
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
          Attach
        </Button>
        <Button onClick={onBack}>Back</Button>
      </div>
    </form>
  );
}
