import { getEnrollment, getEnrollmentOperation, postEnrollmentOperation, requestEnrollment } from '@/lib/domain/einvoicing';
import { accepted, methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(getEnrollmentOperation, async ({ db, orgId }) => ok(await getEnrollment(db, orgId)));
export const POST = route(postEnrollmentOperation, async ({ db, orgId, body }) => {
  const { status, body: enrollment } = await requestEnrollment(db, orgId, body);
  return status === 200 ? ok(enrollment) : accepted(enrollment);
});
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
