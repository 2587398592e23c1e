import type { Metadata } from 'next';
import Link from 'next/link';
import { requireStaffOrg } from '@/lib/platform/next';
import { formFromTemplate } from '../../editor-model';
import { contactChoice, loadTemplateOr404 } from '../../load';
import { TemplateEditor } from '../../template-editor';
import { templateName } from '../../labels';

export const metadata: Metadata = { title: 'Modifier le modèle récurrent' };

export default async function EditTemplatePage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const t = await loadTemplateOr404(staff, (await params).id);
  const contact = (await contactChoice(staff, t.contact_id)) ?? { id: t.contact_id, name: 'Contact supprimé' };
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/recurring">Facturation récurrente</Link> / <Link href={`/recurring/${t.id}`}>{templateName(t)}</Link> /
          </p>
          <h1>Modifier le modèle</h1>
        </div>
      </div>
      <p className="muted">Les factures déjà générées ne changent pas : la modification vaut pour les prochaines.</p>
      <TemplateEditor id={t.id} initial={formFromTemplate(t)} contact={contact} cancelHref={`/recurring/${t.id}`} />
    </>
  );
}
