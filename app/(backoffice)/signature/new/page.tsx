import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { loadDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { formatMoney } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { listTemplates } from '@/lib/domain/signature';
import type { SourceChoice } from '../actions';
import { newEnvelopeForm } from '../editor-model';
import { EnvelopeEditor } from '../envelope-editor';

export const metadata: Metadata = { title: 'Nouvelle enveloppe' };

const isId = (v: unknown): v is string => z.uuid().safeParse(v).success;

/** A new envelope: `?template=<id>` picks a template, `?source=<id>` a finalized quote or invoice of the org. */
export default async function NewEnvelopePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const templates = (await listTemplates(staff.db, staff.orgId, { limit: 100 })).data.map((t) => ({ id: t.id, name: t.name }));
  const form = newEnvelopeForm();
  if (isId(raw.template) && templates.some((t) => t.id === raw.template)) form.template_id = raw.template;
  let source: SourceChoice | null = null;
  if (isId(raw.source)) {
    try {
      const doc = await loadDocument(staff.db, staff.orgId, raw.source);
      if ((doc.type === 'devis' || doc.type === 'facture') && doc.finalized_at) {
        form.source_kind = doc.type;
        form.source_document_id = doc.id;
        source = { id: doc.id, name: `${doc.number ?? 'Sans numéro'}${doc.title ? ` · ${doc.title}` : ''}`, detail: formatMoney(doc.total_ttc) };
      }
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/signature">Signature électronique</Link> /
          </p>
          <h1>Nouvelle enveloppe</h1>
        </div>
      </div>
      <p className="muted">
        L’enveloppe est créée en brouillon : vous placerez ensuite les champs sur le document, ajouterez d’éventuels approbateurs, puis l’enverrez.
      </p>
      <EnvelopeEditor initial={form} templates={templates} source={source} />
    </>
  );
}
