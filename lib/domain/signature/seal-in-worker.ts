import { type ComposeInput, composeSignedPdf } from './compose';
import { type EvidenceErrorCode, SealFailure } from './evidence-state';
import { type SealOptions, withSealPlaceholder } from './seal';

/*
 * What the seal job runs in lib/platform/sandbox: the signers' original (an uploaded file, checked at upload but still
 * anyone's PDF) loaded, composited and saved with the seal's placeholder. The job signs the placeholder on its own
 * thread, so that the private key never enters the worker that reads the file.
 */
export type ComposedForSeal = { ok: true; bytes: Uint8Array } | { ok: false; code: EvidenceErrorCode; message: string };

export async function composeForSeal({ input, options }: { input: ComposeInput; options: SealOptions }): Promise<ComposedForSeal> {
  try {
    return { ok: true, bytes: await withSealPlaceholder(await composeSignedPdf(input), options) };
  } catch (err) {
    if (err instanceof SealFailure) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}
