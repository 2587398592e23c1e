import { PDFDocument } from 'pdf-lib';
import type { signatureEnvelopes, signatureSigners } from '@/db/schema';
import { type AuditChainReport, type AuditEventRow, publicAuditEvent } from './audit';
import { kindLabel, methodLabel, parisTime, TextPages } from './compose';
import { ASSURANCE_LABELS, AUDIT_EVENT_LABELS, CHAIN_BREAK_LABELS, ENVELOPE_STATUS_LABELS, ROUTING_LABELS, SIGNER_STATUS_LABELS } from './labels';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type SignerRow = typeof signatureSigners.$inferSelect;

/** The name of the JSON evidence attached inside the proof PDF. */
export const EVIDENCE_FILE_NAME = 'evidence.json';

export interface ProofInput {
  envelope: EnvelopeRow;
  signers: SignerRow[];
  chain: AuditEventRow[];
  chainReport: AuditChainReport;
  document: { name: string; sha256: string; page_count: number } | null;
  /** The document as its people know it: the envelope's subject, « Devis D-2026-0042 », else the uploaded file's name. */
  documentTitle: string;
  /** Annexes sent with the envelope (…/documents). */
  attachments: Array<{ name: string; sha256: string; page_count: number }>;
  /** What signers uploaded for the requested documents. */
  uploads: Array<{ signer_id: string; requested_label: string; name: string; content_type: string; byte_size: number; sha256: string; uploaded_at: Date }>;
  /** The seal's certificate (null when the envelope has no signed PDF). */
  seal: { subject: string; fingerprint: string } | null;
  generatedAt: Date;
}

/** The evidence as data: what the report shows, exactly (it is attached to the PDF as evidence.json). */
export function evidenceOf(input: ProofInput) {
  const e = input.envelope;
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    format: 'paraphe.signature.evidence/1',
    generated_at: input.generatedAt.toISOString(),
    envelope: {
      id: e.id,
      status: e.status,
      subject: e.subject,
      source_kind: e.source_kind,
      source_document_id: e.source_document_id,
      routing_mode: e.routing_mode,
      assurance_level: e.assurance_level,
      consent_text_version: e.consent_text_version,
      sent_at: iso(e.sent_at),
      completed_at: iso(e.completed_at),
      declined_at: iso(e.declined_at),
    },
    document: input.document ? { ...input.document, document_hash: e.document_hash } : { document_hash: e.document_hash },
    signed_document_sha256: e.signed_document_sha256,
    seal_certificate: input.seal,
    attachments: input.attachments,
    uploads: input.uploads.map((u) => ({ ...u, uploaded_at: u.uploaded_at.toISOString() })),
    signers: input.signers.map((s) => ({
      id: s.id,
      email: s.email,
      full_name: s.full_name,
      phone: s.phone,
      routing_order: s.routing_order,
      verification_method: s.verification_method,
      status: s.status,
      verified_at: iso(s.verified_at),
      notified_at: iso(s.notified_at),
      opened_at: iso(s.opened_at),
      consent_given_at: iso(s.consent_given_at),
      consent_text_version: s.consent_text_version,
      signed_at: iso(s.signed_at),
      signed_ip: s.signed_ip,
      signed_user_agent: s.signed_user_agent,
      signature_kind: s.signature_kind,
      declined_at: iso(s.declined_at),
      decline_reason: s.decline_reason,
    })),
    audit_chain: input.chain.map(publicAuditEvent),
    audit_chain_verification: input.chainReport,
  };
}

/** A state in French, then its API name: « signée / completed ». */
const both = (labels: Record<string, string>, value: string) => (labels[value] && labels[value] !== value ? `${labels[value]} / ${value}` : value);

/** The proof: a readable evidence report (French and English) with the JSON evidence attached inside it. */
export async function buildProofPdf(input: ProofInput): Promise<Uint8Array> {
  const evidence = evidenceOf(input);
  const doc = await PDFDocument.create();
  doc.setTitle(`Preuve de signature / Signature evidence — ${input.envelope.id}`);
  doc.setProducer('Paraphe');
  doc.setCreationDate(input.generatedAt);
  doc.setModificationDate(input.generatedAt);
  const out = await TextPages.create(doc);
  const e = input.envelope;
  out.text('Rapport de preuve / Evidence report', { size: 16, bold: true, gap: 6 });
  out.text(`Enveloppe / Envelope : ${e.id} — statut / status : ${both(ENVELOPE_STATUS_LABELS, e.status)}`, { size: 10 });
  if (e.subject) out.text(`Objet / Subject : ${e.subject}`, { size: 10 });
  out.text(`Généré le / Generated on : ${parisTime(input.generatedAt)}`, { grey: true });
  out.text(
    `Niveau / Assurance : ${both(ASSURANCE_LABELS, e.assurance_level)} ; circuit / routing : ${both(ROUTING_LABELS, e.routing_mode)} ; texte de consentement / consent text : ${e.consent_text_version}`,
    {
    grey: true,
    gap: 8,
  });
  out.text('Document', { size: 12, bold: true });
  out.text(input.documentTitle, { bold: true });
  if (input.document) out.text(`Fichier / File : ${input.document.name} — ${input.document.page_count} page(s)`);
  out.text(`SHA-256 du document envoyé / of the document sent : ${e.document_hash ?? '—'}`);
  out.text(`SHA-256 du document signé et scellé / of the signed, sealed document : ${e.signed_document_sha256 ?? '— (aucun / none)'}`);
  if (input.seal) out.text(`Certificat du sceau / Seal certificate : ${input.seal.subject} — SHA-256 ${input.seal.fingerprint}`);
  for (const a of input.attachments) out.text(`Annexe / Attachment : ${a.name} — ${a.page_count} page(s) — SHA-256 ${a.sha256}`);
  if (input.uploads.length) {
    const who = new Map(input.signers.map((s) => [s.id, s.email]));
    out.space(4);
    out.text('Documents fournis / Uploaded documents', { bold: true, size: 10 });
    for (const u of input.uploads) out.text(`${u.requested_label} : ${u.name} (${u.content_type}, ${u.byte_size} o) — ${who.get(u.signer_id) ?? u.signer_id} — ${parisTime(u.uploaded_at)} — SHA-256 ${u.sha256}`, { indent: 12 });
  }
  out.space(8);
  out.text('Signataires / Signers', { size: 12, bold: true });
  for (const [i, s] of input.signers.entries()) {
    out.text(`${i + 1}. ${s.full_name ? `${s.full_name} <${s.email}>` : s.email}${s.phone ? ` — ${s.phone}` : ''} — ${both(SIGNER_STATUS_LABELS, s.status)}`, { bold: true, size: 10 });
    out.text(`Vérification / Verification : ${methodLabel(s)}; vérifié / verified : ${parisTime(s.verified_at)}`, { indent: 12 });
    out.text(`Notifié / Notified : ${parisTime(s.notified_at)}; ouvert / opened : ${parisTime(s.opened_at)}`, { indent: 12 });
    out.text(`Consentement / Consent : ${parisTime(s.consent_given_at)} (${s.consent_text_version ?? '—'})`, { indent: 12 });
    if (s.signed_at) out.text(`Signé / Signed : ${parisTime(s.signed_at)} — IP ${s.signed_ip ?? '—'} — signature ${kindLabel(s.signature_kind)}`, { indent: 12 });
    if (s.signed_user_agent) out.text(`User agent : ${s.signed_user_agent}`, { indent: 12 });
    if (s.declined_at) out.text(`Refusé / Declined : ${parisTime(s.declined_at)} — motif / reason : ${s.decline_reason ?? '—'}`, { indent: 12 });
    out.space(4);
  }
  out.space(6);
  out.text("Chaîne d'audit / Audit chain", { size: 12, bold: true });
  const report = input.chainReport;
  out.text(
    report.ok
      ? `Vérifiée / Verified : ${report.count} événement(s) / event(s), tête / head ${input.chain.at(-1)?.content_hash ?? '—'}`
      : `ROMPUE / BROKEN : événement / event #${report.first_broken?.index ?? '—'} (${both(CHAIN_BREAK_LABELS, report.first_broken?.reason ?? '—')})`,
    { bold: !report.ok },
  );
  // The rule in full, for a reader without our documentation; prev is the previous event's content_hash ("" for the first).
  out.text('content_hash = sha256_hex(prev + "\\n" + JCS({seq_index, event_type, event_data, signer_id, occurred_at})), prev = content_hash précédent / previous ("" pour le premier / for the first)', {
    grey: true,
    gap: 4,
  });
  const who = new Map(input.signers.map((s) => [s.id, s.email]));
  for (const ev of input.chain) {
    const data = ev.event_data as Record<string, unknown>;
    const signer = ev.signer_id ? ` — signataire / signer : ${who.get(ev.signer_id) ?? ev.signer_id}` : '';
    out.text(`#${ev.seq_index} ${AUDIT_EVENT_LABELS[ev.event_type] ?? ev.event_type} (${ev.event_type}) — ${parisTime(ev.occurred_at)}${signer}`, { bold: true, size: 8.5 });
    out.text(`IP ${String(data.ip ?? '—')} — ${String(data.user_agent ?? '—')}`, { indent: 12, size: 8 });
    out.text(`empreinte / content_hash : ${ev.content_hash} — précédente / prev_hash : ${ev.prev_hash ?? '— (premier événement / first event)'}`, { indent: 12, size: 7.5, grey: true, gap: 2 });
  }
  out.space(6);
  out.text(`La pièce jointe ${EVIDENCE_FILE_NAME} contient ces éléments en JSON (événements complets). / The attachment ${EVIDENCE_FILE_NAME} holds this evidence as JSON (events in full).`, {
    size: 8,
    grey: true,
  });
  await doc.attach(Buffer.from(JSON.stringify(evidence, null, 2)), EVIDENCE_FILE_NAME, {
    mimeType: 'application/json',
    description: 'Signature evidence (envelope, signers, audit chain)',
    creationDate: input.generatedAt,
    modificationDate: input.generatedAt,
  });
  return doc.save();
}
