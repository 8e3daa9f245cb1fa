/**
 * The client command the MCP conformance suite runs for each client scenario:
 *
 *   node --import tsx test/conformance/client.ts <server-url>
 *
 * with `MCP_CONFORMANCE_SCENARIO` naming the scenario. The client under test is the bundled host
 * (dist/host/switchyard.cjs), driven the way the browser drives it: a throwaway
 * `SWITCHYARD_HOME` whose config.json names the suite's server as a remote entry, the host
 * spawned with the extension's origin, length-prefixed JSON frames on its stdin and stdout
 * (test/integration/host-harness.ts), the launch approved from its consent card, then
 * `tools/list` and the one `tools/call` the scenario expects (plans.ts), approved from its
 * approval card as a user would, and any question the server asks meanwhile answered from its
 * card as a user would (accepted as it opened). Exits 0 when the host did all that, 1 with the reason on stderr
 * otherwise; the suite's own checks decide whether the host spoke MCP correctly.
 */
import { rmSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { initialValues } from '../../protocol/elicitation';
import { hostNotifications, requestMethods } from '../../protocol/methods';
import { ApprovalRequestSchema } from '../../protocol/tools';
import { followToRedirect } from '../fixtures/oauth/test-browser';
import { HostHarness, killLeftoverHosts, makeHome, unwrap } from '../integration/host-harness';
import { SERVER_NAME, planFor, type ToolCallPlan } from './plans';

/** Below the suite's default 30 s per scenario, so the adapter reports why before it is killed. */
const CLIENT_DEADLINE_MS = 25_000;
const POLL_INTERVAL_MS = 100;
const CLOSE_GRACE_MS = 5_000;

function log(line: string): void {
  process.stderr.write(`conformance adapter: ${line}\n`);
}

/** The result of one request, or an error naming the method, the reason and the message. */
async function resultOf(host: HostHarness, method: string, params?: unknown): Promise<unknown> {
  const reply = await host.request(method, params);
  if (reply.error) {
    throw new Error(
      `${method} failed (${reply.error.data?.reason ?? String(reply.error.code)}): ${reply.error.message}`,
    );
  }
  return reply.result;
}

/** What `identity.getRedirectURL()` gives an extension: the host accepts only that shape. */
const BROWSER_REDIRECT = 'https://conformance.chromiumapp.org/';
/** Sign-ins one scenario may need: the first, and one step-up. */
const MAX_SIGN_INS = 2;

/**
 * Signs in the way the popup's Sign in does: `auth/begin` with the browser's redirect, the
 * authorization page followed as the browser's sign-in window would (the suite's authorization
 * server approves at once), and `auth/complete` with where it redirected.
 */
async function signIn(host: HostHarness): Promise<void> {
  const begun = (await resultOf(host, 'auth/begin', {
    server: SERVER_NAME,
    redirectUri: BROWSER_REDIRECT,
  })) as { flowId: string; authorizationUrl: string };
  log(`signing in at ${new URL(begun.authorizationUrl).origin}`);
  let callbackUrl: string | null = null;
  try {
    ({ callbackUrl } = await followToRedirect(begun.authorizationUrl, BROWSER_REDIRECT));
  } catch (error) {
    log(
      `the authorization page did not come back: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  await resultOf(host, 'auth/complete', { flowId: begun.flowId, callbackUrl });
  log('signed in');
}

/**
 * Waits until the host runs the suite's server, approving its launch once from the consent card
 * (a config.json entry Switchyard did not write is "edited outside" and waits for the user).
 */
async function untilRunning(
  host: HostHarness,
  deadline: number,
  configWarnings: readonly string[],
): Promise<void> {
  let approved = false;
  let signIns = 0;
  while (Date.now() < deadline) {
    const { servers } = requestMethods['servers/list'].result.parse(
      await resultOf(host, 'servers/list'),
    );
    const entry = servers.find((server) => server.name === SERVER_NAME);
    if (entry === undefined) {
      const why = configWarnings.find((warning) => warning.includes(`mcpServers.${SERVER_NAME}`));
      throw new Error(
        `the host did not load the '${SERVER_NAME}' entry: ${why ?? 'no config warning says why'}`,
      );
    }
    const { status } = entry;
    switch (status.state) {
      case 'running':
        log(`'${SERVER_NAME}' is running, protocol ${status.protocolVersion}`);
        return;
      case 'needs-approval': {
        if (approved) throw new Error('the server asks for approval again after trust/approve');
        approved = true;
        log(`approving the launch from its card (${status.consent.reason})`);
        await resultOf(host, 'trust/approve', {
          server: SERVER_NAME,
          fingerprint: status.consent.fingerprint,
        });
        break;
      }
      case 'starting':
      case 'crashed':
        await delay(POLL_INTERVAL_MS);
        break;
      case 'failed':
        if (status.reason === 'auth-required' && signIns < MAX_SIGN_INS) {
          signIns += 1;
          await signIn(host);
          break;
        }
        throw new Error(`the server failed (${status.reason}): ${status.message}`);
      case 'stopped':
        throw new Error('the server is stopped');
    }
  }
  throw new Error(`the server was not running after ${CLIENT_DEADLINE_MS} ms`);
}

/**
 * Answers every question a server asks during `during` as a user at the side panel's card would
 * who reads it and presses Accept: the form as it opens, its defaults pre-filled
 * (`initialValues`, what the side panel shows), sent through `elicitation/respond`.
 */
async function answeringQuestions<T>(host: HostHarness, during: Promise<T>): Promise<T> {
  let seen = host.notifications.length;
  const answer = async (): Promise<void> => {
    const fresh = host.notifications.slice(seen);
    seen = host.notifications.length;
    for (const note of fresh) {
      if (note.method !== 'notifications/elicitation/requested') continue;
      const { request } = hostNotifications['notifications/elicitation/requested'].parse(
        note.params,
      );
      log(`'${request.server}' asks: ${request.message}`);
      const content = request.mode === 'form' ? initialValues(request.fields) : undefined;
      log(`accepting the card as it opened: ${JSON.stringify(content ?? {})}`);
      await resultOf(host, 'elicitation/respond', {
        id: request.id,
        action: 'accept',
        ...(content === undefined ? {} : { content }),
      });
    }
  };
  const timer = setInterval(() => {
    answer().catch((error: unknown) => {
      log(`could not answer a card: ${error instanceof Error ? error.message : String(error)}`);
    });
  }, POLL_INTERVAL_MS);
  try {
    return await during;
  } finally {
    clearInterval(timer);
  }
}

/** One call of the planned tool, allowed once from its approval card when the policy asks. */
async function callOnce(host: HostHarness, exposedName: string, plan: ToolCallPlan) {
  const params = { name: exposedName, arguments: plan.arguments };
  const reply = await answeringQuestions(host, host.request('tools/call', params));
  if (reply.error?.data?.reason !== 'approval-required') return reply;
  const card = ApprovalRequestSchema.parse(reply.error.data['approval']);
  // What a user checks before clicking "Allow once": the exact call the model asked for.
  if (JSON.stringify(card.arguments) !== JSON.stringify(plan.arguments)) {
    throw new Error(`the approval card shows other arguments: ${JSON.stringify(card.arguments)}`);
  }
  log(`allowing ${exposedName} once from its approval card`);
  return answeringQuestions(
    host,
    host.request('tools/call', {
      ...params,
      approval: { requestId: card.requestId, nonce: card.nonce },
    }),
  );
}

/** Calls the planned tool; a step-up (a scope not granted) signs in again and calls again. */
async function callTool(host: HostHarness, exposedName: string, plan: ToolCallPlan): Promise<void> {
  let reply = await callOnce(host, exposedName, plan);
  const error = reply.error;
  if (error?.data?.reason === 'server-unavailable' && /sign[ -]in/i.test(error.message)) {
    log(`${exposedName} needs a wider sign-in: ${error.message}`);
    await signIn(host);
    await untilRunning(host, Date.now() + CLIENT_DEADLINE_MS, []);
    reply = await callOnce(host, exposedName, plan);
  }
  if (reply.error) {
    throw new Error(
      `tools/call ${exposedName} failed (${reply.error.data?.reason ?? String(reply.error.code)}): ${reply.error.message}`,
    );
  }
  const result = requestMethods['tools/call'].result.parse(reply.result);
  const texts = result.content.flatMap((block) =>
    block.type === 'text' ? [unwrap(block.text)] : [],
  );
  if (result.isError === true)
    throw new Error(`${exposedName} returned an error: ${texts.join(' ')}`);
  if (
    plan.expectText !== undefined &&
    !texts.some((text) => text.includes(plan.expectText ?? ''))
  ) {
    throw new Error(`${exposedName} answered ${JSON.stringify(texts)}, not "${plan.expectText}"`);
  }
  log(`${exposedName} answered ${JSON.stringify(texts)}`);
}

async function drive(host: HostHarness, scenario: string): Promise<void> {
  const deadline = Date.now() + CLIENT_DEADLINE_MS;
  const greeting = await host.hello();
  if (greeting.error) throw new Error(`host/hello failed: ${greeting.error.message}`);
  const hello = requestMethods['host/hello'].result.parse(greeting.result);
  for (const warning of hello.configWarnings) log(`config warning: ${warning}`);
  await untilRunning(host, deadline, hello.configWarnings);

  const { tools } = requestMethods['tools/list'].result.parse(
    await resultOf(host, 'tools/list', { server: SERVER_NAME }),
  );
  log(`tools/list: ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);
  const { call } = planFor(scenario);
  if (call === undefined) return;
  const exposed = tools.find((tool) => tool.tool === call.tool);
  if (exposed === undefined) throw new Error(`the host lists no tool '${call.tool}'`);
  await callTool(host, exposed.name, call);
}

/**
 * What a scenario hands the client in `MCP_CONFORMANCE_CONTEXT`: for `auth/pre-registration`, the
 * OAuth client registered beforehand at its authorization server (which offers no registration).
 */
const ContextSchema = z.looseObject({
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  /** `auth/client-credentials-jwt`: the client's key (PKCS #8 PEM) and its algorithm. */
  private_key_pem: z.string().optional(),
  signing_algorithm: z.string().optional(),
  /**
   * `auth/cross-app-access-complete-flow` (SEP-990): the enterprise IdP, Switchyard's client
   * there, and the user's ID token it issued (what the user's IdP sign-in or its CLI would hold).
   */
  idp_issuer: z.string().optional(),
  idp_token_endpoint: z.string().optional(),
  idp_client_id: z.string().optional(),
  idp_id_token: z.string().optional(),
});

/** The variables the adapter keeps the suite's client secret and key in, as a user would. */
const SECRET_VARIABLE = 'CONFORMANCE_CLIENT_SECRET';
const KEY_VARIABLE = 'CONFORMANCE_CLIENT_KEY';
const ID_TOKEN_VARIABLE = 'CONFORMANCE_IDP_ID_TOKEN';

/**
 * The suite's server as a config.json entry, with the scenario's pre-registered client as a user
 * writes it: the client id in the entry, the secret or key a `${VAR}` set in the host's
 * environment, and `"grant": "client_credentials"` where the plan says the client is a machine
 * (the suite's context does not say; a user knows which kind of client their IdP gave them).
 */
function serverEntry(
  url: string,
  context: string | undefined,
  machine: boolean,
): { entry: Record<string, unknown>; env: Record<string, string> } {
  const parsed = context === undefined ? undefined : ContextSchema.parse(JSON.parse(context));
  const entry: Record<string, unknown> = { type: 'http', url };
  if (parsed?.client_id === undefined) return { entry, env: {} };
  const secret = parsed.client_secret;
  const key = parsed.private_key_pem;
  const idToken = parsed.idp_id_token;
  if (idToken !== undefined) {
    entry['oauth'] = {
      grant: 'cross-app-access',
      clientId: parsed.client_id,
      clientSecret: `\${${SECRET_VARIABLE}}`,
      idp: {
        issuer: parsed.idp_issuer,
        ...(parsed.idp_token_endpoint === undefined
          ? {}
          : { tokenEndpoint: parsed.idp_token_endpoint }),
        clientId: parsed.idp_client_id,
        idToken: `\${${ID_TOKEN_VARIABLE}}`,
      },
    };
    log(`using cross-app access through the IdP ${JSON.stringify(parsed.idp_issuer)}`);
    return {
      entry,
      env: { [SECRET_VARIABLE]: secret ?? '', [ID_TOKEN_VARIABLE]: idToken },
    };
  }
  entry['oauth'] = {
    ...(machine ? { grant: 'client_credentials' } : {}),
    clientId: parsed.client_id,
    ...(secret === undefined ? {} : { clientSecret: `\${${SECRET_VARIABLE}}` }),
    ...(key === undefined ? {} : { privateKey: `\${${KEY_VARIABLE}}` }),
    ...(parsed.signing_algorithm === undefined ? {} : { algorithm: parsed.signing_algorithm }),
  };
  log(
    `using the pre-registered ${machine ? 'machine ' : ''}client ${JSON.stringify(parsed.client_id)}`,
  );
  return {
    entry,
    env: {
      ...(secret === undefined ? {} : { [SECRET_VARIABLE]: secret }),
      ...(key === undefined ? {} : { [KEY_VARIABLE]: key }),
    },
  };
}

async function main(): Promise<number> {
  const url = process.argv[2];
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  if (url === undefined) {
    log('usage: client.ts <server-url> (with MCP_CONFORMANCE_SCENARIO set)');
    return 2;
  }
  log(`scenario '${scenario}', server ${url}`);
  const plan = planFor(scenario);
  const { entry, env } = serverEntry(
    url,
    process.env['MCP_CONFORMANCE_CONTEXT'],
    plan.machineClient === true,
  );
  if (plan.clientMetadataUrl !== undefined)
    log(`client metadata document at ${plan.clientMetadataUrl}`);
  const home = makeHome({
    mcpServers: { [SERVER_NAME]: entry },
    ...(plan.clientMetadataUrl === undefined
      ? {}
      : { oauthClientMetadataUrl: plan.clientMetadataUrl }),
  });
  const host = new HostHarness(home, { env: { SWITCHYARD_SECRET_STORE: 'file', ...env } });
  // The adapter plays the user at the approval card itself (callTool), rather than the harness.
  host.autoApprove = false;
  // The suite kills a client that overruns its timeout: take the host down with it.
  process.once('SIGTERM', () => {
    killLeftoverHosts();
    process.exit(1);
  });
  let code = 0;
  try {
    await drive(host, scenario);
  } catch (error) {
    log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    log(`host stderr:\n${host.stderr.join('')}`);
    code = 1;
  }
  // Closing stdin is how the browser says goodbye; the host must exit on it by itself.
  const grace = new AbortController();
  const exit = await Promise.race([
    host.close(),
    delay(CLOSE_GRACE_MS, undefined, { signal: grace.signal }).catch(() => undefined),
  ]);
  grace.abort();
  if (exit === undefined) {
    log(`the host did not exit within ${CLOSE_GRACE_MS} ms of stdin closing`);
    killLeftoverHosts();
    code = 1;
  }
  if (process.env['SWITCHYARD_CONFORMANCE_KEEP'] === '1') log(`kept ${home}`);
  else rmSync(home, { recursive: true, force: true });
  return code;
}

process.exitCode = await main();
