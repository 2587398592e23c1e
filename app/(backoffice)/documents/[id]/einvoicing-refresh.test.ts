import { describe, expect, it } from 'vitest';
import { submitTransmission } from '@/lib/domain/einvoicing';
import { transmissionFixture } from '@/lib/domain/einvoicing/transmission/testing';
import { createActionWrappers, initialFormState, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { transmissionBadge } from '../einvoicing-labels';
import { refreshHandler } from './einvoicing-handlers';

// « Actualiser » is this handler in the action wrapper, run here under a given session against the sandbox PA.
let session: StaffSession = null;
const { formAction } = createActionWrappers(async () => session);
const refreshAction = formAction(refreshHandler, { notFound: 'Document introuvable.' });
const refresh = (id: string) => refreshAction(id, initialFormState, new FormData());
const { seller } = transmissionFixture();

async function signIn(org: Awaited<ReturnType<typeof seller>>) {
  const userId = (await createUser(org.db, { email: `member-${org.org.id}@example.fr`, password: 'long enough password' })).id;
  await addMembership(org.db, org.org.id, userId, 'member');
  session = { userId, orgId: org.org.id };
}

describe('« Actualiser » on a transmitted invoice', () => {
  it('asks the PA now: the rejection is recorded and the badge says it; a second click within 15 s is refused', async () => {
    const org = await seller();
    await signIn(org);
    const doc = await org.invoice('213000003');
    await submitTransmission(org.db, org.org.id, doc.id);
    const before = await org.document(doc.id);
    expect([before.transmission_status, before.lifecycle_status]).toEqual(['sent', null]);
    expect(transmissionBadge(before)?.label).toBe('PA : Transmise');

    const done = await refresh(doc.id);
    expect(done.done).toMatch(/^\d+ nouveaux? statuts? reçus? de la plateforme\. Dernier statut : Rejetée\.$/);
    const after = await org.document(doc.id);
    expect(after.lifecycle_status).toBe('rejetee');
    expect(transmissionBadge(after)).toEqual({ label: 'PA : Rejetée', chip: 'chip-red', alert: true });
    expect((await org.log(doc.id)).some((e) => e.code === '213')).toBe(true);

    expect(await refresh(doc.id)).toMatchObject({ error: 'Trop de demandes : patientez quelques secondes.' });
  });

  it('an invoice not yet submitted is only read again; another org’s invoice is not found', async () => {
    const org = await seller();
    await signIn(org);
    const doc = await org.invoice();
    expect(await refresh(doc.id)).toMatchObject({ done: expect.stringContaining('Pas encore transmise (en attente)') });
    expect(org.flows()).toEqual([]);
    const other = await seller();
    const theirs = await other.invoice();
    expect(await refresh(theirs.id)).toMatchObject({ error: 'Document introuvable.' });
    expect(await refresh('not-an-id')).toMatchObject({ error: 'Document introuvable.' });
  });
});
