import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTheme, type Theme } from '@mui/material/styles';
import { useChartPalette } from '@/lib/theme';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { RadarLine } from './stats-radar';

const LINE_HEIGHT = 12;

interface CategoryTickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
}

/**
 * A category's name (a long surgery step) on as many lines as its band holds, the last one cut
 * with an ellipsis: names never run into their neighbours; the table below gives them whole.
 */
function CategoryTick({ x, y, payload, fill, chars, maxLines }: CategoryTickProps & { fill: string; chars: number; maxLines: number }) {
  const name = String(payload?.value ?? '');
  const lines: string[] = [];
  for (const word of name.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= chars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  const shown = lines.slice(0, maxLines);
  if (lines.length > maxLines) shown[maxLines - 1] = `${shown[maxLines - 1]!.slice(0, Math.max(1, chars - 1))}…`;
  const top = Number(y) - ((shown.length - 1) * LINE_HEIGHT) / 2;
  return (
    <text x={Number(x)} y={top} textAnchor="end" dominantBaseline="central" fill={fill} fontSize={11} data-testid="stats-bars-category">
      <title>{name}</title>
      {shown.map((line, i) => (
        <tspan key={i} x={Number(x)} dy={i === 0 ? 0 : LINE_HEIGHT}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

/**
 * One group of bars per row of `data` (named by `name`), one bar per series; horizontal so that
 * long step and scale names stay readable on a phone. Loaded only on the statistics page.
 */
export default function StatsBars({
  data,
  lines,
  max,
  stacked = false,
  format = (v) => String(v),
}: {
  data: Record<string, string | number | null>[];
  lines: RadarLine[];
  max?: number;
  stacked?: boolean;
  format?: (value: number) => string;
}) {
  const theme = useTheme();
  const palette = useChartPalette();
  // Wider names where the page is wide; each band holds as many lines of its name as fit.
  const wide = useMediaQuery((t: Theme) => t.breakpoints.up('md'), { noSsr: true });
  const labelWidth = wide ? 200 : 110;
  const band = stacked ? 44 : 22 * lines.length + 18;
  const height = Math.max(160, data.length * band + 60);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart accessibilityLayer={false} data={data} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid stroke={theme.palette.divider} horizontal={false} />
        <XAxis
          type="number"
          domain={[0, max ?? 'auto']}
          allowDecimals={false}
          tickFormatter={(v: number) => format(v)}
          tick={{ fill: palette.mutedText, fontSize: 11 }}
        />
        <YAxis
          type="category"
          dataKey="name"
          width={labelWidth}
          interval={0}
          tick={(props: CategoryTickProps) => (
            <CategoryTick
              {...props}
              fill={palette.text}
              chars={Math.floor((labelWidth - 12) / 6)}
              maxLines={Math.max(1, Math.floor((band - 6) / LINE_HEIGHT))}
            />
          )}
        />
        <Tooltip
          formatter={(value) => (typeof value === 'number' ? format(value) : String(value))}
          contentStyle={{
            background: theme.palette.background.paper,
            borderColor: theme.palette.divider,
            color: palette.text,
          }}
          cursor={{ fill: theme.palette.action.hover }}
        />
        <Legend wrapperStyle={{ fontSize: 13 }} formatter={(value: string) => <span style={{ color: palette.text }}>{value}</span>} />
        {lines.map((line) => (
          <Bar
            key={line.key}
            name={line.label}
            dataKey={line.key}
            fill={line.color}
            fillOpacity={line.dashed ? 0.55 : 1}
            stackId={stacked ? 'case' : undefined}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
