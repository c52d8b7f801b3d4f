import { WeirClient } from '@weir/client';

/**
 * The one SDK instance of the page. Tokens live in memory only; the refresh token is also in the
 * UI server's httpOnly cookie, so a reload resumes the session through a cookie refresh.
 */
export const api = new WeirClient({ baseUrl: '', cookieRefresh: true });
