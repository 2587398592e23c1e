import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { routes } from '@/lib/domain/documents/testing';
import type { TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { forgetTokens } from './afnor/http';
import { type SandboxPa, startSandboxPa } from './sandbox/server';
import type { SandboxOptions } from './sandbox/state';

export { ENROLLMENT_SCENARIOS, INVOICE_SCENARIOS, UNKNOWN_BUYER_SIREN } from './sandbox/scenarios';
export { SandboxPa, startSandboxPa } from './sandbox/server';
export { enrollAtSandbox, receiveAtSandbox } from './inbound/receive-for-tests';

/** A client secret long enough to be shown as ••••<last 4>. */
export const SANDBOX_SECRET = 'sandbox-secret-0001';

/** pdp_config pointing at a sandbox PA. */
export const sandboxPdpConfig = (url: string, clientId = 'paraphe-test', secret = SANDBOX_SECRET) => ({ provider: 'afnor', base_url: url, client_id: clientId, client_secret: secret });

/**
 * A sandbox PA for a test file: started in-process on a free port before its tests, stopped after. `sandbox.url` and
 * `sandbox.pa` (its state, switches) are set once `beforeAll` has run. It listens on http://127.0.0.1, which the PA
 * connector refuses unless EINVOICING_ALLOW_PRIVATE: the file opts in, as an operator with a local PA would (the test
 * setup restores the environment when the file ends).
 */
export function sandboxPaFixture(options: SandboxOptions = {}) {
  const sandbox = {} as { url: string; pa: SandboxPa };
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    process.env.EINVOICING_ALLOW_PRIVATE = 'true';
    const started = await startSandboxPa(options);
    sandbox.url = started.url;
    sandbox.pa = started.pa;
    close = started.close;
  });
  afterAll(async () => {
    forgetTokens();
    await close?.();
  });
  return sandbox;
}

/** PUTs the org's invoice settings with pdp_config on the sandbox (and e-invoicing on), through the API. */
export async function connectToSandbox(org: TestOrg, url: string, settings: Record<string, unknown> = {}, clientId = `org-${org.org.id}`) {
  const res = await call(routes.putSettings, 'PUT', '/v1/invoice/settings', {
    token: await org.key(),
    body: { einvoicing_enabled: true, pdp_config: sandboxPdpConfig(url, clientId), ...settings },
  });
  if (res.status !== 200) throw new Error(`PUT /v1/invoice/settings: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const SAMPLE = readFileSync('lib/domain/einvoicing/parse/fixtures/samples/factur-x-en16931.xml', 'utf8');

/** A CII invoice (the shared EN 16931 sample) with its number, buyer SIREN (BT-47) and seller SIREN (BT-30) replaced. */
export function ciiInvoice({ number = 'F20260023', buyerSiren = '987654321', sellerSiren }: { number?: string; buyerSiren?: string; sellerSiren?: string } = {}): Buffer {
  let xml = SAMPLE.replaceAll('F20260023', number).replace('<ram:ID schemeID="0002">987654321</ram:ID>', `<ram:ID schemeID="0002">${buyerSiren}</ram:ID>`);
  if (sellerSiren) xml = xml.replace(/(<ram:SellerTradeParty>[\s\S]*?<ram:ID schemeID="0002">)\d{9}(<\/ram:ID>)/, `$1${sellerSiren}$2`);
  return Buffer.from(xml, 'utf8');
}

/** Former name of sandboxPaFixture (biome reads `use…` calls at module level as misplaced React hooks). */
export const useSandboxPa = sandboxPaFixture;
