/** Why a Sigma document cannot be converted, and where: the YAML path (`detection.selection.Image|re`). */
export class SigmaConversionError extends Error {
  override readonly name = 'SigmaConversionError';
  readonly path: string;
  constructor(path: string, reason: string) {
    super(reason);
    this.path = path;
  }
}

export const fail = (path: string, reason: string): never => {
  throw new SigmaConversionError(path, reason);
};

/** `a.b`, `a[2]`, and keys that need quoting (`detection['sel 1']`). */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[^.[\]'\s]+$/.test(key);
  const part = plain ? key : `['${key.replace(/'/g, "\\'")}']`;
  if (parent === '') return part;
  return plain ? `${parent}.${part}` : `${parent}${part}`;
}
