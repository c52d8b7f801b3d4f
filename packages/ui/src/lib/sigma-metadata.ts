import { tactics as attackTactics, techniqueId } from './attack.ts';

/**
 * What an imported Sigma rule carries, read back from its annotations and description as
 * packages/sigma stores them (docs/sigma.md, "Rule ids and metadata"): `TNNNN[.NNN]` techniques,
 * `attack.<tactic>` tags, other tags as written, `sigma.<key>=<value>` metadata (one
 * `sigma.reference=` per reference); the description is Sigma's, then the line
 * `Sigma rule "<title>" <id> by <author> (license: …).` and `References: …`.
 */
export interface RuleSigmaMetadata {
  /** The rule has `sigma.*` annotations (it came from a Sigma import). */
  readonly fromSigma: boolean;
  /** ATT&CK technique ids (`T1059.001`), upper case, in order. */
  readonly techniques: readonly string[];
  /** ATT&CK tactics from `attack.<tactic>` tags: the short name, and the table's name and id when it lists it. */
  readonly tactics: readonly { readonly shortName: string; readonly name: string; readonly id: string | undefined }[];
  /** Every other annotation as written (`G0016`, `S0005`, `cve.2021-44228`, `detection.threat-hunting`). */
  readonly otherTags: readonly string[];
  /** `sigma.<key>=<value>` annotations other than references, in order. */
  readonly metadata: readonly { readonly key: string; readonly value: string }[];
  readonly references: readonly string[];
  /** Sigma's description as written (its line breaks kept), without the attribution and references lines. */
  readonly description: string;
  /** The attribution line (`Sigma rule "…" <id> by … .`), when the description has one. */
  readonly attribution: string | undefined;
}

const techniquePattern = /^(?:attack\.)?t\d{4}(?:\.\d{3})?$/i;
const tacticPattern = /^attack\.([a-z]+(?:-[a-z]+)*)$/i;
const metadataPattern = /^sigma\.([A-Za-z0-9_-]+)=(.*)$/s;

/** `defense-impairment` → `Defense Impairment` (a tactic the shipped table does not list yet). */
const titleCase = (shortName: string): string =>
  shortName
    .split('-')
    .map((w) => (w === 'and' ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');

/** The rule's annotations and description sorted into what each means. */
export function sigmaMetadata(rule: {
  readonly annotations?: readonly string[];
  readonly description?: string;
}): RuleSigmaMetadata {
  const techniques: string[] = [];
  const tactics: { shortName: string; name: string; id: string | undefined }[] = [];
  const otherTags: string[] = [];
  const metadata: { key: string; value: string }[] = [];
  const references: string[] = [];
  for (const annotation of rule.annotations ?? []) {
    const meta = metadataPattern.exec(annotation);
    const tactic = tacticPattern.exec(annotation);
    if (meta !== null) {
      if (meta[1] === 'reference') references.push(meta[2]!);
      else metadata.push({ key: meta[1]!, value: meta[2]! });
    } else if (techniquePattern.test(annotation)) {
      techniques.push(techniqueId(annotation)!);
    } else if (tactic !== null) {
      const shortName = tactic[1]!.toLowerCase();
      const known = attackTactics.find((t) => t.shortName === shortName);
      tactics.push({ shortName, name: known?.name ?? titleCase(shortName), id: known?.id });
    } else otherTags.push(annotation);
  }
  const fromSigma = metadata.length > 0 || references.length > 0;
  const { description, attribution } = splitDescription(rule.description ?? '', fromSigma);
  return { fromSigma, techniques, tactics, otherTags, metadata, references, description, attribution };
}

/** Sigma's own description, and the attribution line the import appended (the references line is dropped: links show them). */
function splitDescription(text: string, fromSigma: boolean): { description: string; attribution: string | undefined } {
  if (!fromSigma) return { description: text, attribution: undefined };
  const lines = text.split('\n');
  const at = lines.findLastIndex((l) => l.startsWith('Sigma rule "'));
  if (at < 0) return { description: text, attribution: undefined };
  const rest = lines.slice(at + 1).filter((l) => !l.startsWith('References: '));
  return {
    description: [...lines.slice(0, at), ...rest].join('\n').trimEnd(),
    attribution: lines[at],
  };
}

/** Whether an annotation is Sigma metadata (`sigma.<key>=<value>`), which is not an ATT&CK chip. */
export function isSigmaMetadata(annotation: string): boolean {
  return metadataPattern.test(annotation);
}

/** Only http(s) references become links; anything else is shown as text. */
export function isLink(reference: string): boolean {
  return /^https?:\/\/\S+$/i.test(reference);
}
