/**
 * The users every test node is given: the admin of `POST /api/init` and the users an admin creates,
 * each with the password `<username>-pw`. Shared by the broker-backed test node (test-node.ts) and
 * the in-process one (in-process-node.ts).
 */
export const adminInit = {
  name: 'Admin',
  username: 'admin',
  email: 'admin@example.com',
  password: 'admin-pw',
  roles: [{ name: 'admin' }],
};

/** The body of `POST /api/users` for a test user with these role names. */
export function userBody(username: string, roles: readonly string[]) {
  return {
    username,
    name: username,
    email: `${username}@example.com`,
    password: `${username}-pw`,
    roles: roles.map((name) => ({ name })),
  };
}
