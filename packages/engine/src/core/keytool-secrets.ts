/**
 * Passwords for the JDK's keytool, passed through the environment (`-storepass:env NAME`) rather
 * than as arguments: keytool reads an argument that starts with `-J` as an option for its JVM (a
 * generated password `-JO…` made it fail with "Could not find or load main class"), and arguments
 * are visible to every user of the machine in the process list.
 */
export function keytoolSecrets(secrets: readonly (readonly [option: string, value: string])[]): {
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
} {
  const args: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env };
  secrets.forEach(([option, value], i) => {
    const name = `WEIR_KEYTOOL_SECRET_${i}`;
    env[name] = value;
    args.push(`${option}:env`, name);
  });
  return { args, env };
}
