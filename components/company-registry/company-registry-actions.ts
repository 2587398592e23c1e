'use server';

import { staffAction } from '@/lib/platform/next';
import { lookupRegistry } from './company-registry';

/** "Remplir depuis le SIREN": the company of the number typed, or why not, in French (company-registry.ts). */
export const lookupCompanyAction = staffAction(async (_staff, query: string) => lookupRegistry(String(query ?? '').slice(0, 40)));
