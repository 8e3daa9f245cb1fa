import { UriTemplate } from '@modelcontextprotocol/client';

/**
 * A resource template's variables and its expansion into a URI (issue 12), through the MCP SDK's
 * RFC 6570 implementation: the same one a server built on the SDK matches the URI with, so what
 * the picker makes is what the server reads. Pure; the side panel asks the host rather than
 * carrying a second implementation (and the SDK) in its bundle.
 */

/** Most variables one template may have: a form a person fills in, not a query language. */
export const MAX_TEMPLATE_VARIABLES = 32;

/** The template's variable names in order, each once; undefined for a template that is not one. */
export function templateVariables(template: string): string[] | undefined {
  let names: string[];
  try {
    names = new UriTemplate(template).variableNames;
  } catch {
    return undefined;
  }
  const unique = [...new Set(names)];
  if (unique.length > MAX_TEMPLATE_VARIABLES) return undefined;
  // A variable the form cannot show (empty, or with control characters) makes no usable form.
  if (unique.some((name) => name === '' || /[\p{Cc}\s]/u.test(name))) return undefined;
  return unique;
}

export type Expansion =
  { readonly ok: true; readonly uri: string } | { readonly ok: false; readonly reason: string };

/**
 * The URI `template` makes with `values`. Every variable must be given and not blank (a URI with
 * a hole in it reads nothing useful), and no value may name a variable the template lacks (a
 * mistyped form field would otherwise vanish silently).
 */
export function expandTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  maxLength: number,
): Expansion {
  const variables = templateVariables(template);
  if (variables === undefined) {
    return { ok: false, reason: `'${template}' is not a URI template this host can fill in.` };
  }
  const unknown = Object.keys(values).filter((name) => !variables.includes(name));
  if (unknown.length > 0) {
    return { ok: false, reason: `The template has no variable ${quoted(unknown)}.` };
  }
  const missing = variables.filter((name) => (values[name] ?? '').trim() === '');
  if (missing.length > 0) {
    return { ok: false, reason: `Fill in ${quoted(missing)}.` };
  }
  let uri: string;
  try {
    uri = new UriTemplate(template).expand({ ...values });
  } catch (error) {
    return { ok: false, reason: `The template could not be filled in: ${String(error)}` };
  }
  if (uri.length > maxLength) {
    return {
      ok: false,
      reason: `The URI would be ${uri.length} characters; at most ${maxLength}.`,
    };
  }
  return { ok: true, uri };
}

function quoted(names: readonly string[]): string {
  return names.map((name) => `'${name}'`).join(', ');
}
