import { refreshLifecycle } from '@/lib/domain/einvoicing';
import { plural, pluralWord } from '@/lib/platform/format';
import { idOf, type StaffContext } from '@/lib/platform/next';
import { lifecycleLabel, TRANSMISSION_LABELS } from '../einvoicing-labels';

/*
 * « Actualiser » apart from its wrapper (einvoicing-actions.ts adds revalidation): the tests run it under a given
 * session, against the sandbox PA.
 */

/** The statuses of the invoice asked of the PA now (refreshLifecycle), and what came of it in words. */
export async function refreshHandler({ db, orgId }: StaffContext, _form: unknown, documentId: string) {
  const result = await refreshLifecycle(db, orgId, idOf(documentId, 'Document'));
  if (result.transmission_status === 'not_required') return { done: 'Ce document ne passe pas par la plateforme agréée.' };
  if (!result.polled) {
    return { done: `Pas encore transmise (${TRANSMISSION_LABELS[result.transmission_status].toLowerCase()}) : la facture part vers la plateforme par sa file d’envoi.` };
  }
  const now = result.lifecycle_status ? ` Dernier statut : ${lifecycleLabel(result.lifecycle_status)}.` : '';
  if (result.recorded === 0) return { done: `À jour : aucun nouveau statut de la plateforme.${now}` };
  return { done: `${plural(result.recorded, 'nouveau statut', 'nouveaux statuts')} ${pluralWord(result.recorded, 'reçu')} de la plateforme.${now}` };
}
