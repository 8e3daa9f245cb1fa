import type { Resource, ResourceTemplate } from '../../../protocol/resources';

/** The context picker's rules (issue 12), pure so they are tested without a DOM. */

/** Most resources the picker shows at once; searching narrows the rest. */
export const MAX_SHOWN = 200;

/** What the picker lists: a resource, attached as it is, or a template, filled in first. */
export type ContextChoice =
  | { readonly kind: 'resource'; readonly resource: Resource }
  | { readonly kind: 'template'; readonly template: ResourceTemplate };

function fields(choice: ContextChoice): {
  server: string;
  name: string;
  address: string;
  title?: string | undefined;
  description?: string | undefined;
} {
  const item = choice.kind === 'resource' ? choice.resource : choice.template;
  const address = choice.kind === 'resource' ? choice.resource.uri : choice.template.uriTemplate;
  return { ...item, address };
}

/**
 * The resources and templates matching `query` (every word, in any order, case-insensitive,
 * against the name, title, URI or template, description and server), by server, then name, a
 * resource before a template of the same name; at most MAX_SHOWN.
 */
export function filterContext(choices: readonly ContextChoice[], query: string): ContextChoice[] {
  return choices
    .map((choice) => ({ choice, f: fields(choice) }))
    .filter(({ f }) => matchesEvery([f.name, f.title, f.address, f.description, f.server], query))
    .sort(
      (a, b) =>
        a.f.server.localeCompare(b.f.server) ||
        a.f.name.localeCompare(b.f.name) ||
        a.choice.kind.localeCompare(b.choice.kind),
    )
    .slice(0, MAX_SHOWN)
    .map(({ choice }) => choice);
}

/** A key for a choice, unique within one listing. */
export function choiceKey(choice: ContextChoice): string {
  const { server, address } = fields(choice);
  return `${choice.kind}\u0000${server}\u0000${address}`;
}

/** Whether every word of `query` is in one of `parts`, case-insensitively (the pickers' search). */
export function matchesEvery(parts: readonly (string | undefined)[], query: string): boolean {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const haystack = parts
    .filter((part) => part !== undefined)
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

function size(bytes: number): string {
  if (bytes >= 1_048_576) return `${(bytes / 1_048_576).toFixed(1)} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** "server · uri · type · size": where a resource comes from and what it is. */
export function resourceDetail(resource: Resource): string {
  return [
    resource.server,
    resource.uri,
    resource.mimeType,
    resource.size === undefined ? undefined : size(resource.size),
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
}

/** "server · template · type": a template's line in the picker, its URI shape in view. */
export function templateDetail(template: ResourceTemplate): string {
  return [template.server, template.uriTemplate, template.mimeType]
    .filter((part) => part !== undefined)
    .join(' · ');
}

/**
 * The name a filled-in template's chip carries: its own, with the values that tell one filling
 * from another (`Dynamic Text Resource (resourceId: 7)`), so two chips of one template differ.
 */
export function filledName(
  template: ResourceTemplate,
  values: Readonly<Record<string, string>>,
): string {
  const base = template.title ?? template.name;
  const shown = template.variables
    .filter((name) => (values[name] ?? '').trim() !== '')
    .map((name) => `${name}: ${(values[name] ?? '').trim()}`);
  return shown.length === 0 ? base : `${base} (${shown.join(', ')})`;
}

/** The variables still blank, by name: every variable of a template is needed to make its URI. */
export function blankVariables(
  template: ResourceTemplate,
  values: Readonly<Record<string, string>>,
): string[] {
  return template.variables.filter((name) => (values[name] ?? '').trim() === '');
}

/**
 * Whether the `@` just typed at `caret` starts a mention: at the start of the text or after
 * whitespace, so an email address does not open the picker.
 */
export function startsMention(text: string, caret: number): boolean {
  if (caret < 1 || text[caret - 1] !== '@') return false;
  return caret === 1 || /\s/.test(text[caret - 2] ?? '');
}
