/**
 * The refresh token's cookie: httpOnly (no script reads it), Secure, SameSite=Strict, and sent only
 * to the refresh path, so no other request carries it.
 */
const name = 'weir_refresh';
const path = '/api/token/refresh';

export const refreshCookie = {
  name,
  set(token: string): string {
    return `${name}=${token}; Path=${path}; HttpOnly; Secure; SameSite=Strict`;
  },
  clear(): string {
    return `${name}=; Path=${path}; HttpOnly; Secure; SameSite=Strict; Max-Age=0`;
  },
  read(header: string | undefined): string | undefined {
    if (!header) return undefined;
    for (const part of header.split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === name && v.length > 0 && v.join('=') !== '') return v.join('=');
    }
    return undefined;
  },
};
