import { z } from 'zod';

// Imported first by every entrypoint. MV3's content security policy forbids eval; zod probes for
// it with `new Function` before its first object parse, and although it catches the refusal, the
// browser still reports a CSP violation (and Firefox's add-on linter flags the bundle). Jitless
// parsing skips the probe; the speed difference is immaterial for the messages we parse.
z.config({ jitless: true });
