import { ZodError } from 'zod';
import { getDb } from '@/db/client';
import { ApiError, fromZodError } from '@/lib/platform/errors';
import { acceptInvitation } from '@/lib/platform/orgs';

type Ctx = { params: Promise<{ token: string }> };

const see = (location: string) => new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

/**
 * The invitation page's post (no script needed): the account is made (or proved) and joins the org, then 303 to the
 * login page; a refusal goes back to the page with its code and field in the query (what was typed never does).
 */
export async function POST(req: Request, { params }: Ctx): Promise<Response> {
  const { token } = await params;
  const fields = Object.fromEntries(new URLSearchParams(await req.text().catch(() => '')));
  try {
    await acceptInvitation(await getDb(), token, fields);
    return see('/login');
  } catch (caught) {
    const err = caught instanceof ZodError ? fromZodError(caught) : caught;
    if (!(err instanceof ApiError) || err.status >= 500) throw caught;
    return see(`/invitation/${token}?${new URLSearchParams({ error: err.code, ...(err.field ? { field: err.field } : {}) })}`);
  }
}

/** A reload of the post's URL goes back to the page. */
export async function GET(_req: Request, { params }: Ctx): Promise<Response> {
  return see(`/invitation/${(await params).token}`);
}
