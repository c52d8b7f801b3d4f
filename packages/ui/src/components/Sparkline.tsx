/** A small line chart of the last values (SVG, no library): live rates on the overview. */
export function Sparkline({
  values,
  label,
  color = 'var(--mantine-color-blue-filled)',
}: {
  values: number[];
  label: string;
  color?: string;
}) {
  const w = 220;
  const h = 48;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? w / (values.length - 1) : w;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(h - (v / max) * (h - 4) - 2).toFixed(1)}`).join(' ');
  return (
    <svg
      width={w}
      height={h}
      role="img"
      aria-label={`${label}: last ${values.length} samples, latest ${values.at(-1) ?? 0}`}
    >
      <polyline points={points} fill="none" stroke={color} strokeWidth={2} />
    </svg>
  );
}
