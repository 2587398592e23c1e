import type { Db } from '@/db/client';
import { documentsToExport, EXPORT_LIMIT, paidByDocument } from '@/lib/domain/documents';
import { fecEntries, fecFile, getExportSettings, linesCsv, numbered, Period, paymentEntries, paymentsCsv, periodPayments } from '@/lib/domain/exports';
import { getOrg } from '@/lib/platform/orgs';
import { documentsCsv } from '../documents/documents-csv';

/*
 * The export downloads, for the staff member's org. Each route is `GET(request) → download(await requireStaffOrg(),
 * request)`: the session is read there, and what follows is tested on the real database with an org of the test's.
 */

interface Staff {
  db: Db;
  orgId: string;
}
type Download = (staff: Staff, request: Request) => Promise<Response>;

/** A refusal the browser shows as a page of text (the download link was followed). */
export const refusal = (status: number, body: string) => new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/** The period of the link (?from=YYYY-MM-DD&to=YYYY-MM-DD), or the refusal to answer. */
export function periodOf(request: Request): Period | Response {
  const query = new URL(request.url).searchParams;
  const parsed = Period.safeParse({ from: query.get('from'), to: query.get('to') });
  return parsed.success ? parsed.data : refusal(422, 'Cette période n’est pas valable : revenez aux exports et choisissez un début et une fin (le début avant la fin).');
}

/** The file as a download. */
export const attachment = (body: string, name: string, type: string) =>
  new Response(body, {
    headers: { 'content-type': `${type}; charset=utf-8`, 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'private, no-store' },
  });

/** A download of the period of the link: a bad period is refused before anything is read. */
const forPeriod =
  (build: (staff: Staff, period: Period) => Promise<Response>): Download =>
  async (staff, request) => {
    const period = periodOf(request);
    return period instanceof Response ? period : build(staff, period);
  };

/** The SIREN the FEC's name starts with, or the refusal to write one without it. */
async function sirenOf(db: Db, orgId: string): Promise<string | Response> {
  const org = await getOrg(db, orgId);
  if (!org.siren || !/^\d{9}$/.test(org.siren)) return refusal(422, 'Le FEC porte le SIREN de l’entreprise : renseignez-le dans Réglages → Organisation.');
  return org.siren;
}

/** /exports/fec: the sales journal then the bank journal of the period as one FEC file, named after the SIREN and the period's end. */
export const fecDownload = forPeriod(async ({ db, orgId }, period) => {
  const siren = await sirenOf(db, orgId);
  if (siren instanceof Response) return siren;
  const settings = await getExportSettings(db, orgId);
  const entries = numbered(await fecEntries(db, orgId, period, settings), paymentEntries(await periodPayments(db, orgId, period), settings));
  const { name, content } = fecFile(entries, { siren, closingDate: period.to });
  return attachment(content, name, 'text/plain');
});

/** /exports/banque: the bank journal alone, in the FEC's format: one entry per payment of paiements.csv. */
export const bankDownload = forPeriod(async ({ db, orgId }, period) => {
  const siren = await sirenOf(db, orgId);
  if (siren instanceof Response) return siren;
  const settings = await getExportSettings(db, orgId);
  const { content } = fecFile(paymentEntries(await periodPayments(db, orgId, period), settings), { siren, closingDate: period.to });
  return attachment(content, `${siren}${settings.bank_journal_code}${period.to.replaceAll('-', '')}.txt`, 'text/plain');
});

/**
 * /exports/documents.csv: the documents issued in the period (drafts and cancelled drafts aside: no number, not
 * issued), in the documents list's CSV (the same columns, credit notes negative).
 */
export const documentsDownload = forPeriod(async ({ db, orgId }, period) => {
  const all = await documentsToExport(db, orgId, { issue_date_from: period.from, issue_date_to: period.to });
  if (all.length > EXPORT_LIMIT) return refusal(422, `Plus de ${EXPORT_LIMIT.toLocaleString('fr-FR')} documents sur cette période : exportez-la en plusieurs fois.`);
  const docs = all.filter((d) => d.number !== null);
  const paid = await paidByDocument(
    db,
    orgId,
    docs.map((d) => d.id),
  );
  return attachment(documentsCsv(docs, paid), `documents-${period.from}-${period.to}.csv`, 'text/csv');
});

/** /exports/lignes.csv: every line of the documents issued in the period. */
export const linesDownload = forPeriod(async ({ db, orgId }, period) =>
  attachment(await linesCsv(db, orgId, period), `lignes-${period.from}-${period.to}.csv`, 'text/csv'),
);

/** /exports/paiements.csv: the payments received in the period. */
export const paymentsDownload = forPeriod(async ({ db, orgId }, period) =>
  attachment(await paymentsCsv(db, orgId, period), `paiements-${period.from}-${period.to}.csv`, 'text/csv'),
);
