import { z } from 'zod';
import { operation } from '@/lib/platform/contract';
import { Enrollment, EnrollmentInput } from '../schemas';

const tag = 'E-invoicing';
const NoQuery = z.strictObject({});

export const getEnrollmentOperation = operation({
  method: 'get',
  path: '/v1/invoice/einvoicing/enrollment',
  operationId: 'getEinvoicingEnrollment',
  tag,
  summary: 'The org’s enrollment in the e-invoicing directory',
  description: 'not_enrolled until requested; pending while the PA has not confirmed the directory line; enrolled; failed with its reason.',
  scope: 'invoice:read',
  query: NoQuery,
  responses: { 200: { description: 'The enrollment.', schema: Enrollment } },
});

export const postEnrollmentOperation = operation({
  method: 'post',
  path: '/v1/invoice/einvoicing/enrollment',
  operationId: 'enrollEinvoicing',
  tag,
  summary: 'Enroll the org in the e-invoicing directory through its PA',
  description:
    'Registers the directory line (electronic address 0225:<SIREN>, or SIREN_SIRET, SIREN_SIRET_ROUTINGCODE) through the PA of pdp_config. ' +
    'Omitted siren and siret come from the org’s legal identity. 200 when the PA enables the line at once, 202 pending otherwise (checked every minute). ' +
    'Asking again for the same identity answers the current state. A refusal by the PA is kept (status failed, reason) and answered 422 enrollment_refused.',
  scope: 'invoice:write',
  query: NoQuery,
  body: EnrollmentInput,
  responses: {
    200: { description: 'Enrolled at once.', schema: Enrollment },
    202: { description: 'Pending: the PA has not confirmed the line yet.', schema: Enrollment },
  },
  errors: [
    [409, 'einvoicing_not_configured'],
    [409, 'einvoicing_secret_unreadable'],
    [409, 'pa_refused'],
    [422, 'enrollment_refused'],
    [503, 'pa_unavailable'],
  ],
  errorFields: { enrollment_refused: { enrollment: Enrollment.meta({ description: 'the enrollment as kept, status failed with the PA’s reason.' }) } },
});

export const enrollmentOperations = [getEnrollmentOperation, postEnrollmentOperation];
