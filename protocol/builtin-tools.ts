/**
 * Names of the extension's own browser tools. The host reserves them so no MCP tool can be
 * exposed under the same name (design D4): a collision would route a call to the wrong side.
 */
export const BUILTIN_TOOL_NAMES = [
  'browser_read_page',
  'browser_get_selection',
  'browser_get_tab',
  'browser_list_tabs',
  'browser_screenshot',
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];
