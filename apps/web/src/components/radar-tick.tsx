export interface AxisTickProps {
  x?: number | string;
  y?: number | string;
  textAnchor?: string;
  payload?: { value?: unknown };
}

/** A skill's name on a radar, one line per few words, so that long French names stay inside a phone's width. */
export function RadarTick({ x, y, textAnchor, payload, fill, fontSize = 11 }: AxisTickProps & { fill: string; fontSize?: number }) {
  const words: string[] = [];
  for (const word of String(payload?.value ?? '').split(' ')) {
    const last = words.at(-1);
    if (last !== undefined && last.length + word.length < 14) words[words.length - 1] = `${last} ${word}`;
    else words.push(word);
  }
  const lineHeight = fontSize + 2;
  const top = Number(y) - ((words.length - 1) * lineHeight) / 2;
  return (
    <text x={Number(x)} y={top} textAnchor={textAnchor as 'start' | 'middle' | 'end'} fill={fill} fontSize={fontSize}>
      {words.map((word, i) => (
        <tspan key={i} x={Number(x)} dy={i === 0 ? 0 : lineHeight}>
          {word}
        </tspan>
      ))}
    </text>
  );
}
