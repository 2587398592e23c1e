import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { todayParis } from '@/lib/platform/dates';
import { getDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { requireStaffOrg } from '@/lib/platform/next';
import { firstDateOnOrAfter, nextGenerationDate } from '@/lib/domain/recurring';
import { documentName } from '../../documents/labels';
import { formFromInvoice, newTemplateForm } from '../editor-model';
import { contactChoice } from '../load';
import { TemplateEditor } from '../template-editor';

export const metadata: Metadata = { title: 'Nouveau modèle récurrent' };

const isId = (v: string | undefined): v is string => z.uuid().safeParse(v).success;

/**
 * A new template, blank, for a client (?contact_id=), or from an invoice (?from=: "Créer un modèle récurrent" on its
 * page): its client, object, notes, nature and lines, monthly from the same day of the month after it, or the first
 * such day from today.
 */
export default async function NewTemplatePage({ searchParams }: { searchParams: Promise<{ from?: string; contact_id?: string }> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const today = todayParis();
  let form = newTemplateForm(today);
  let source: { id: string; name: string } | null = null;
  if (isId(raw.from)) {
    try {
      const doc = await getDocument(staff.db, staff.orgId, raw.from);
      if (doc.type === 'facture') {
        const day = Number(doc.issue_date.slice(8, 10));
        const next = firstDateOnOrAfter(nextGenerationDate(doc.issue_date, 'monthly', day), 'monthly', day, today);
        form = formFromInvoice(doc, next);
        source = { id: doc.id, name: documentName(doc) };
      }
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  } else if (isId(raw.contact_id)) {
    form.contact_id = raw.contact_id;
  }
  const contact = form.contact_id ? await contactChoice(staff, form.contact_id) : null;
  if (!contact) form.contact_id = '';

  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/recurring">Facturation récurrente</Link> /
          </p>
          <h1>Nouveau modèle récurrent</h1>
        </div>
      </div>
      {source ? (
        <p className="notice notice-success" role="status">
          Prérempli d’après <Link href={`/documents/${source.id}`}>{source.name}</Link> : client, objet, notes, nature et lignes. Vérifiez la date de la
          prochaine facture.
        </p>
      ) : (
        <p className="muted">Le modèle est actif dès sa création : sa première facture est générée à la date choisie.</p>
      )}
      <TemplateEditor id={null} initial={form} contact={contact} cancelHref={source ? `/documents/${source.id}` : '/recurring'} />
    </>
  );
}
