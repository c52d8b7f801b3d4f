import { attackSource, techniqueName, techniques } from './attack.ts';

/**
 * The rule editor's ATT&CK picker: every technique and sub-technique of the shipped table as a
 * choice (`T1110.001 Brute Force: Password Guessing`, stored as `T1110.001`), and the check of a
 * rule's annotations: an id that is not in the table is flagged; other tags are allowed as written.
 */
export interface TechniqueOption {
  readonly value: string;
  readonly label: string;
}

export const techniqueOptions: readonly TechniqueOption[] = [...techniques.keys()]
  .sort()
  .map((id) => ({ value: id, label: `${id} ${techniqueName(id)!}` }));

const techniquePattern = /^(?:attack\.)?(t\d{4}(?:\.\d{3})?)$/i;
/** The short source line (`MITRE ATT&CK v18.1 Enterprise`). */
const table = attackSource.split(',')[0]!;

/** What is wrong with each annotation that means a technique but names none in the table; empty when nothing is. */
export function annotationProblems(annotations: readonly string[]): string[] {
  const problems: string[] = [];
  for (const a of annotations) {
    const m = techniquePattern.exec(a.trim());
    if (m !== null) {
      const id = m[1]!.toUpperCase();
      if (techniques.has(id)) continue;
      const name = techniqueName(id);
      problems.push(
        name
          ? `\`${a}\` is a retired ATT&CK technique (${name.replace(/ \(retired\)$/, '')}): it is not in ${table}`
          : `\`${a}\` is not an ATT&CK technique in ${table}`,
      );
    }
  }
  return problems;
}
