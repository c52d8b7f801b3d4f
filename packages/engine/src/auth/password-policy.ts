import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The password policy (docs/security.md, "Passwords"), applied when a password is set or changed,
 * never at login, so users created before the policy keep logging in. A password must be at least
 * `weir.auth.password-min-length` characters (Unicode code points) long, must not be the username
 * (ignoring case), and must not be one of the ~30,000 most common passwords of the list shipped with
 * `@zxcvbn-ts/language-common` (ignoring case).
 */
let common: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

/** The rule the password breaks, as a phrase for the 400 answer, or undefined when it passes. */
export function passwordProblem(
  password: string,
  username: string,
  minLength: number,
  refuseCommon = true,
): string | undefined {
  const length = [...password].length;
  if (length < minLength) {
    return `it has ${length} characters and must have at least ${minLength} (setting weir.auth.password-min-length)`;
  }
  if (password.toLowerCase() === username.toLowerCase()) return 'it must not be the username';
  if (refuseCommon && commonPasswords().has(password.toLowerCase()))
    return 'it is one of the most common passwords; choose one that is not';
  return undefined;
}
