import { defineBackground } from 'wxt/utils/define-background';

// WXT evaluates this file's top level at build time: runtime code stays inside main().
export default defineBackground(() => {
  // The agent loop and the native port are wired here (issue 4).
});
