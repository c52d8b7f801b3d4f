/**
 * A line diff (longest common subsequence) in the unified style: `-` lines only in `before`, `+`
 * lines only in `after`, and `context` unchanged lines around each change. Manifests are small, so
 * the quadratic table is fine.
 */
export function lineDiff(before: string, after: string, context = 3): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: { op: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      ops.push({ op: '-', text: a[i]! });
      i++;
    } else {
      ops.push({ op: '+', text: b[j]! });
      j++;
    }
  }
  return formatLines(ops, context);
}

/**
 * Lines of a diff as text: `- `, `+ ` or two spaces before each, `context` unchanged lines around each
 * change, `  …` for the unchanged runs left out; '' when nothing changed. (The dry run's diff and the
 * PDL diff of two versions.)
 */
export function formatLines(ops: readonly { op: ' ' | '-' | '+'; text: string }[], context = 3): string {
  if (ops.every((o) => o.op === ' ')) return '';
  const keep = ops.map(
    (o, k) => o.op !== ' ' || ops.slice(Math.max(0, k - context), k + context + 1).some((x) => x.op !== ' '),
  );
  const out: string[] = [];
  let skipped = false;
  ops.forEach((o, k) => {
    if (keep[k]) {
      out.push(`${o.op} ${o.text}`);
      skipped = false;
    } else if (!skipped) {
      out.push('  …');
      skipped = true;
    }
  });
  return out.length ? `${out.join('\n')}\n` : '';
}
