import { z } from 'zod';
import { Timestamp } from '@/lib/platform/contract';
import type { signatureEnvelopes } from '@/db/schema';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;

/** Where the evidence (signed PDF and proof) of a completed or declined envelope stands. */
export const EVIDENCE_STATUSES = ['pending', 'sealed', 'failed'] as const;
export type EvidenceStatus = (typeof EVIDENCE_STATUSES)[number];

/**
 * Why an attempt of the seal job failed. Each names a cause someone can fix (the stored original, a signature image,
 * the certificate) so that the retry after it makes sense; `internal_error` is anything else (storage down, a bug).
 */
export const EVIDENCE_ERROR_CODES = ['original_missing', 'original_altered', 'original_unreadable', 'signature_image_invalid', 'certificate_unavailable', 'internal_error'] as const;
export type EvidenceErrorCode = (typeof EVIDENCE_ERROR_CODES)[number];

/** A failure of the seal whose cause is known: its code goes on the envelope, its message to the operators. */
export class SealFailure extends Error {
  constructor(
    readonly code: EvidenceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SealFailure';
  }
}

/** The code of what made an attempt fail; anything not classified where it happened is `internal_error`. */
export function sealErrorCode(err: unknown): EvidenceErrorCode {
  return err instanceof SealFailure ? err.code : 'internal_error';
}

export const EnvelopeEvidence = z
  .object({
    status: z.enum(EVIDENCE_STATUSES).meta({
      description:
        'pending: the seal job has not stored the evidence yet (it is queued, running or retrying); sealed: the proof (and the signed PDF when the envelope has positioned fields) is stored; ' +
        'failed: every attempt of the seal job failed — nothing is downloadable until POST …/seal succeeds.',
    }),
    attempts: z.number().int().meta({ description: 'Attempts of the seal job run so far (every retry counts).' }),
    error_code: z
      .enum(EVIDENCE_ERROR_CODES)
      .nullable()
      .meta({
        description:
          'Why the last attempt failed, while no attempt has succeeded: original_missing (the stored PDF is gone), original_altered (its SHA-256 is no longer document_hash), ' +
          'original_unreadable, signature_image_invalid (a drawn signature that cannot be decoded), certificate_unavailable, internal_error; null otherwise.',
      }),
    failed_at: Timestamp.nullable().meta({ description: 'When the last attempt failed for good (status failed); null otherwise.' }),
  })
  .meta({ id: 'SignatureEnvelopeEvidence', description: 'The evidence of a completed or declined envelope: the sealed PDF and the proof the seal job stores.' });
export type EnvelopeEvidence = z.infer<typeof EnvelopeEvidence>;

/**
 * The envelope's evidence state, read from its row: stored (proof_key) is sealed, a recorded final failure is failed,
 * any other completed or declined envelope is pending. Null for the others: no evidence is made for them.
 */
export function evidenceOf(row: EnvelopeRow): EnvelopeEvidence | null {
  if (row.status !== 'completed' && row.status !== 'declined') return null;
  const status: EvidenceStatus = row.proof_key ? 'sealed' : row.evidence_failed_at ? 'failed' : 'pending';
  return {
    status,
    attempts: row.evidence_attempts,
    error_code: status === 'sealed' ? null : ((row.evidence_error_code as EvidenceErrorCode | null) ?? null),
    failed_at: status === 'failed' ? row.evidence_failed_at!.toISOString() : null,
  };
}
