import names from './attack-techniques.json';

const table = names as Record<string, string>;

/** A technique's name from the static table shipped with the UI (nothing fetched at run time). */
export function techniqueName(id: string): string | undefined {
  const m = /T\d{4}(?:\.\d{3})?/i.exec(id);
  return m ? (table[m[0].toUpperCase()] ?? table[m[0].toUpperCase().split('.')[0]!]) : undefined;
}
