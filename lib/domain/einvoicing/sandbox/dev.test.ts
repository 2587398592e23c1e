import { describe, expect, it } from 'vitest';
import { paSandboxPort } from '@/lib/platform/config';
import { loadSettings, readPdpConfig } from '@/lib/domain/invoice-settings';
import { createTestOrg } from '@/lib/testing/fixtures';
import { connectorForOrg } from '../connector';
import { sandboxPaFixture } from '../testing';
import { connectToDevSandbox, DEV_SANDBOX_CLIENT } from './dev';

/* PA_SANDBOX=true under `npm run dev`: the sandbox beside the app, and the demo org connected to it (docs/einvoicing.md). */

const sandbox = sandboxPaFixture();

describe('PA_SANDBOX', () => {
  it('is a development switch: off unless true, off in production, on PA_SANDBOX_PORT (4010 by default)', () => {
    expect(paSandboxPort({})).toBeNull();
    expect(paSandboxPort({ PA_SANDBOX: 'false' })).toBeNull();
    expect(paSandboxPort({ PA_SANDBOX: 'true' })).toBe(4010);
    expect(paSandboxPort({ PA_SANDBOX: 'true', PA_SANDBOX_PORT: '4999' })).toBe(4999);
    expect(paSandboxPort({ PA_SANDBOX: 'true', NODE_ENV: 'production' })).toBeNull();
    expect(() => paSandboxPort({ PA_SANDBOX: 'true', PA_SANDBOX_PORT: 'x' })).toThrow(/PA_SANDBOX_PORT/);
  });

  it('connects an org without a PA to the sandbox (secret sealed), which then answers its directory lookups; an org with a PA keeps it', async () => {
    const org = await createTestOrg();
    expect(await connectToDevSandbox(org.db, org.org.id, sandbox.url)).toBe(true);
    const stored = (await loadSettings(org.db, org.org.id)).pdp_config as Record<string, unknown>;
    expect(JSON.stringify(stored)).not.toContain(DEV_SANDBOX_CLIENT.client_secret);
    expect(readPdpConfig(stored)).toMatchObject({ provider: 'afnor', base_url: sandbox.url, ...DEV_SANDBOX_CLIENT });
    // A real round trip: the connector authenticates at the sandbox with these credentials.
    expect(await (await connectorForOrg(org.db, org.org.id)).lookup({ siren: '552032534', siret: null })).toMatchObject({ electronicAddress: expect.stringContaining('552032534') });

    expect(await connectToDevSandbox(org.db, org.org.id, 'http://127.0.0.1:1')).toBe(false);
    expect(readPdpConfig((await loadSettings(org.db, org.org.id)).pdp_config)).toMatchObject({ base_url: sandbox.url });
  });
});
