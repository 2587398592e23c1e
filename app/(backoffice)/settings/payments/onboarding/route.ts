import { requireStaffOrg } from '@/lib/platform/next';
import { onboardingRedirect } from '../handlers';

/** GET /settings/payments/onboarding: a new onboarding link (the provider's refresh_url; ../handlers.ts). */
export async function GET() {
  return onboardingRedirect(await requireStaffOrg());
}
