'use server';

import { revalidatePath } from 'next/cache';
import { ExportSettings, saveExportSettings } from '@/lib/domain/exports';
import { formAction } from '@/lib/platform/next';

export const saveExportSettingsAction = formAction(
  async ({ db, orgId }, input) => {
    await saveExportSettings(db, orgId, input);
    revalidatePath('/exports');
    return { done: 'Comptes enregistrés.' };
  },
  { input: ExportSettings, adminOnly: 'Seuls les administrateurs peuvent modifier les comptes de l’export comptable.' },
);
