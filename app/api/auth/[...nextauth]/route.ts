import NextAuth from 'next-auth';
import { refuseCredentialsInQuery } from '@/lib/platform/auth';
import { authOptions } from '@/lib/platform/next';
import { ApiError } from '@/lib/platform/errors';

type Context = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth reads credentials from POST bodies only; a password, key or token in the query string of any /api/auth
 * request is refused (400 credentials_in_query) before next-auth sees it, so that it is never used.
 */
async function handler(req: Request, ctx: Context): Promise<Response> {
  try {
    refuseCredentialsInQuery(req.url);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return Response.json(err.toBody(), { status: err.status, headers: { 'Cache-Control': 'no-store' } });
  }
  return NextAuth(authOptions())(req, ctx);
}
export { handler as GET, handler as POST };
