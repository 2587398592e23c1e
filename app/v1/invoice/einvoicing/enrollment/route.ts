import { getEnrollment, requestEnrollment } from '@/lib/domain/einvoicing/enrollment/enrollment';
import { getEnrollmentOperation, postEnrollmentOperation } from '@/lib/domain/einvoicing/enrollment/operations';
import { accepted, methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(getEnrollmentOperation, async ({ db, orgId }) => ok(await getEnrollment(db, orgId)));
export const POST = route(postEnrollmentOperation, async ({ db, orgId, body }) => {
  const { status, body: enrollment } = await requestEnrollment(db, orgId, body);
  return status === 200 ? ok(enrollment) : accepted(enrollment);
});
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
