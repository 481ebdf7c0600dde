import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTheme } from '@mui/material/styles';
import type { RadarLine } from './stats-radar';

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
  const height = Math.max(160, data.length * (stacked ? 44 : 22 * lines.length + 18) + 60);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid stroke={theme.palette.divider} horizontal={false} />
        <XAxis
          type="number"
          domain={[0, max ?? 'auto']}
          allowDecimals={false}
          tickFormatter={(v: number) => format(v)}
          tick={{ fill: theme.palette.text.secondary, fontSize: 11 }}
        />
        <YAxis type="category" dataKey="name" width={110} tick={{ fill: theme.palette.text.primary, fontSize: 11 }} />
        <Tooltip
          formatter={(value) => (typeof value === 'number' ? format(value) : String(value))}
          contentStyle={{
            background: theme.palette.background.paper,
            borderColor: theme.palette.divider,
            color: theme.palette.text.primary,
          }}
          cursor={{ fill: theme.palette.action.hover }}
        />
        <Legend wrapperStyle={{ color: theme.palette.text.primary, fontSize: 13 }} />
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
