import { z } from 'zod';
import { readListFilters, readListSort } from '@/components/ui';
import { DOCUMENT_SORTS, DocumentListQuery, documentsToExport, EXPORT_LIMIT, paidByDocument } from '@/lib/domain/documents';
import { todayParis } from '@/lib/platform/dates';
import { requireStaffOrg } from '@/lib/platform/next';
import { documentsCsv } from '../documents-csv';
import { DOCUMENT_LIST_FILTERS, MAX_BULK } from '../labels';

const Selection = z.array(z.uuid()).max(MAX_BULK);

/**
 * GET /documents/export.csv?<the list's filters>: every document the list shows with these filters, as CSV; with
 * `ids` (the list's bulk "Exporter"), only the documents checked; `sort` and `dir` as the list's.
 */
export async function GET(request: Request) {
  const staff = await requireStaffOrg();
  const params = new URL(request.url).searchParams;
  const raw = Object.fromEntries(params);
  const parsed = DocumentListQuery.safeParse(readListFilters(raw, DOCUMENT_LIST_FILTERS.filter((k) => k !== 'cursor')));
  const text = (status: number, body: string) => new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  if (!parsed.success) return text(422, 'Ces filtres ne sont pas valables : revenez à la liste et corrigez-les.');
  const selection = Selection.safeParse(params.getAll('ids'));
  if (!selection.success) return text(422, `Sélection non valable : au plus ${MAX_BULK} documents de la liste.`);
  // The bulk form says it is a selection: an empty one exports nothing rather than the whole list.
  if (params.has('selection') && selection.data.length === 0) return text(422, 'Cochez au moins un document à exporter.');
  // In the list's order when it is sorted (the sort rides along in the export link and the bulk form).
  const sort = readListSort(raw, Object.keys(DOCUMENT_SORTS) as Array<keyof typeof DOCUMENT_SORTS>);
  const docs = await documentsToExport(staff.db, staff.orgId, parsed.data, selection.data.length ? selection.data : undefined, sort);
  if (docs.length > EXPORT_LIMIT) return text(422, `Plus de ${EXPORT_LIMIT.toLocaleString('fr-FR')} documents : affinez les filtres (une période, un type) pour exporter.`);
  const paid = await paidByDocument(
    staff.db,
    staff.orgId,
    docs.map((d) => d.id),
  );
  return new Response(documentsCsv(docs, paid), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="documents-${todayParis()}.csv"`,
      'cache-control': 'private, no-store',
    },
  });
}
