import { DEV_EXTENSION_ID, chromiumOrigin } from '../protocol/identity';
import { measureColdStart } from './cold-start';
import { referenceServers } from './reference-servers';
const servers = referenceServers();
for (const bundle of process.argv.slice(2)) {
  const r = await measureColdStart({ servers, bundle, origin: chromiumOrigin(DEV_EXTENSION_ID), runs: 5, warmups: 1 });
  const m = r.medians;
  console.log(bundle, JSON.stringify({ all: m.hostAllRunningMs, hello: m.hostHelloMs, boot: m.hostBootMs, par: m.directParallelMs, ratio: m.hostAllRunningMs / m.directParallelMs }));
}
servers.cleanup?.();
process.exit(0);
