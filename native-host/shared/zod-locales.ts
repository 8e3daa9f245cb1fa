/**
 * Stands in for zod's locale index in the host bundle (scripts/build-host.mjs): zod exports every
 * language's error messages as `z.locales`, which the host never reads, and evaluating the
 * forty-odd modules was a measurable part of the host's start before it can answer the browser
 * (decision 0030). English, zod's default, stays.
 */
export { default as en } from 'zod/v4/locales/en.js';
