/**
 * Exposed tool names are legal for every model provider (design D4). A leaf of its own, so the
 * host's first stage (the workspace merge compares names) does not evaluate protocol/tools.ts's
 * schemas before it answers the browser's hello.
 */
export const EXPOSED_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
