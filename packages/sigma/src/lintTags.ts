import type { AttackTable } from '@weir/contract';

/** What a tag is, for SIGMA_TAG_* and SIGMA_ATTACK_* (sigma-appendix-tags.md, the schema's tag pattern). */
export type TagVerdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'format'; readonly message: string; readonly fixed?: string }
  | { readonly kind: 'invalid'; readonly message: string; readonly fixed?: string }
  | { readonly kind: 'unknown'; readonly message: string }
  | { readonly kind: 'retired'; readonly message: string };

/** The schema's tag pattern: a lower-case namespace, a dot, a lower-case name. */
const TAG = /^[a-z0-9_-]+\.[a-z0-9._-]+$/;
const TECHNIQUE = /^t\d{4}(?:\.\d{3})?$/;
/** Groups, software, data sources, mitigations, assets (not in the shipped table: format only). */
const OTHER_ID = /^(?:g|s|ds|m|a)\d{4}$/;
const TACTIC = /^[a-z]+(?:-[a-z]+)*$/;
/** A technique id written another way: `T1059`, `t1059.1`, `attack.T1059_001`. */
const LOOSE_TECHNIQUE = /^(?:attack[._-]?)?t(\d{4})(?:[._-](\d{1,3}))?$/i;

export function judgeTag(tag: string, attack: AttackTable, version: string): TagVerdict {
  const loose = LOOSE_TECHNIQUE.exec(tag);
  const canonical =
    loose === null ? undefined : `attack.t${loose[1]}${loose[2] === undefined ? '' : `.${loose[2].padStart(3, '0')}`}`;
  if (!tag.toLowerCase().startsWith('attack.')) {
    if (canonical !== undefined)
      return {
        kind: 'invalid',
        message: `tag '${tag}' looks like an ATT&CK technique but is not an ATT&CK tag: write '${canonical}'`,
        fixed: canonical,
      };
    if (!TAG.test(tag))
      return {
        kind: 'format',
        message: `tag '${tag}' is not '<namespace>.<name>' in lower case (the specification's tag pattern)`,
        ...(TAG.test(tag.toLowerCase()) ? { fixed: tag.toLowerCase() } : {}),
      };
    return { kind: 'ok' };
  }
  const name = tag.slice('attack.'.length);
  if (TECHNIQUE.test(name)) {
    const id = name.toUpperCase();
    if (attack.techniques[id] !== undefined) return { kind: 'ok' };
    const retired = attack.retired[id];
    if (retired !== undefined)
      return {
        kind: 'retired',
        message: `ATT&CK technique ${id} (${retired}) is retired or revoked in ATT&CK ${version}`,
      };
    return {
      kind: 'unknown',
      message: `ATT&CK technique ${id} is not in Weir's ATT&CK table (${version}); it may be newer than the table`,
    };
  }
  if (OTHER_ID.test(name)) return { kind: 'ok' };
  if (canonical !== undefined)
    return {
      kind: 'invalid',
      message: `tag '${tag}' is not a valid ATT&CK id: write '${canonical}'`,
      fixed: canonical,
    };
  if (TACTIC.test(name)) {
    if (attack.tactics.some((t) => t.shortName === name)) return { kind: 'ok' };
    return {
      kind: 'unknown',
      message: `ATT&CK tactic '${name}' is not in Weir's ATT&CK table (${version}); it may be newer than the table`,
    };
  }
  return {
    kind: 'invalid',
    message: `tag '${tag}' is not an ATT&CK id: the attack namespace takes a technique (t1234, t1234.001), a group (g1234), software (s1234) or a tactic name`,
  };
}
